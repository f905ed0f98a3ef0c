/**
 * A Vite plugin for the visit of someone already signed in, whose first screen is the shell and
 * the dashboard.
 *
 * 1. One chunk for that screen. Left to itself the bundler splits the code the shell and the
 *    dashboard share with other screens into some twenty-five small files; over HTTP/1.1's six
 *    connections each costs a round trip, and on a slow phone network that was most of the
 *    dashboard's load time. Which modules end up in those files is known only after tree-shaking
 *    (the component libraries are imported through index files that name everything), so the
 *    plugin first bundles in memory, reads which modules the shell and the dashboard load beyond
 *    the entry, and then has the real build put exactly those in one `signed-in` chunk.
 * 2. A tiny script beside the entry that asks for that chunk and its stylesheet at once when a
 *    token is stored, instead of after the entry has downloaded and run, and starts reading the
 *    account's grants (`earlyReads`): the shell shows a screen once it knows the account may view
 *    it, so that answer is on its way beside the code rather than after it. Someone signing in
 *    loads only the script.
 */
import { build, type Plugin, type Rollup } from 'vite';

/** Set while the in-memory bundle runs, so that bundle does not start another. */
const PROBING = Symbol.for('master-admin.signed-in-first-screen.probing');
type Probing = { [PROBING]?: boolean };

export function signedInFirstScreen(options: {
  /** The localStorage key that holds the token. */
  tokenKey: string;
  /** Modules of the first signed-in screen (the layout, the home screen), as path suffixes. */
  modules: string[];
  /** The sign-in screen's path, where nothing is preloaded. */
  signInPath: string;
  /**
   * API calls to start with the token: `window[global]` becomes the promise of the answer's JSON,
   * or null when the call failed (the app then makes the call itself).
   */
  earlyReads: Array<{ global: string; url: string }>;
}): Plugin {
  const chunkModules = new Set<string>();
  let base = '/';
  let configFile: string | undefined;
  let mode = 'production';
  const probing = () => (globalThis as Probing)[PROBING] === true;

  return {
    name: 'master-admin-signed-in-first-screen',
    apply: 'build',
    // After Vite's own plugins, so index.html is in the bundle when this edits it.
    enforce: 'post',
    config: () => ({
      build: {
        rollupOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'signed-in',
                  test: (id: string) => chunkModules.has(id),
                  // Only the modules listed: their dependencies in the entry stay there.
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
    }),
    configResolved(config) {
      base = config.base;
      configFile = config.configFile;
      mode = config.mode;
    },
    async buildStart() {
      if (probing()) return;
      (globalThis as Probing)[PROBING] = true;
      try {
        const result = await build({
          configFile,
          mode,
          logLevel: 'silent',
          build: { write: false, sourcemap: false },
        });
        const outputs = Array.isArray(result) ? result : [result as Rollup.RolldownOutput];
        const chunks = outputs.flatMap((o) => o.output).filter(isChunk);
        for (const chunk of firstScreenChunks(chunks, options.modules)) {
          chunk.moduleIds.forEach((id) => chunkModules.add(id));
        }
      } finally {
        delete (globalThis as Probing)[PROBING];
      }
    },
    generateBundle(_, bundle) {
      if (probing()) return;
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') throw new Error('signed-in-first-screen: no index.html');
      const chunks = Object.values(bundle).filter(isChunk);
      const js = firstScreenChunks(chunks, options.modules);
      const css = js.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]);
      const files = [...new Set(css)].concat(js.map((c) => c.fileName)).map((f) => base + f);

      const source = `// Written by apps/web/signed-in-first-screen.ts at build time.
if (localStorage.getItem(${JSON.stringify(options.tokenKey)}) !== null && location.pathname !== ${JSON.stringify(options.signInPath)}) {
  for (const href of ${JSON.stringify(files)}) {
    const link = document.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
    }
    // As Vite's loader asks for them (crossorigin): a preload in another mode is not reused.
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  const headers = { authorization: 'Bearer ' + localStorage.getItem(${JSON.stringify(options.tokenKey)}) };
  for (const { global, url } of ${JSON.stringify(options.earlyReads)}) {
    window[global] = fetch(url, { headers })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
  }
}
`;
      const ref = this.emitFile({ type: 'asset', name: 'preload-signed-in.js', source });
      const script = `<script type="module" async src="${base}${this.getFileName(ref)}"></script>`;
      const page = String(html.source);
      const entry = '<script type="module"';
      if (!page.includes(entry)) throw new Error('signed-in-first-screen: no entry script');
      html.source = page.replace(entry, `${script}\n    ${entry}`);
    },
  };
}

function isChunk(file: Rollup.OutputChunk | Rollup.OutputAsset): file is Rollup.OutputChunk {
  return file.type === 'chunk';
}

/** The chunks the given modules need beyond those the entry loads. */
function firstScreenChunks(chunks: Rollup.OutputChunk[], modules: string[]): Rollup.OutputChunk[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const graph = (from: Rollup.OutputChunk[]) => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      byName.get(name)?.imports.forEach(visit);
    };
    from.forEach((c) => visit(c.fileName));
    return seen;
  };
  const entryFiles = graph(chunks.filter((c) => c.isEntry));
  const starts = modules.map((m) => {
    const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(m)));
    if (!chunk) throw new Error(`signed-in-first-screen: no chunk holds ${m}`);
    return chunk;
  });
  return [...graph(starts)].filter((f) => !entryFiles.has(f)).map((f) => byName.get(f)!);
}
