/**
 * The app loads Mantine's stylesheets one component at a time (styles/first-screen.ts and
 * styles/signed-in.ts), so a component new to the app renders unstyled until its stylesheet is
 * added there: the video player opened at 300x150 px because AspectRatio's was missing.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(import.meta.dirname, '..');
const mantineStyles = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css')),
  'styles',
);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every name imported from '@mantine/core' anywhere in src, with a file that imports it. */
function usedComponents(): Map<string, string> {
  const used = new Map<string, string>();
  const imports = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@mantine\/core'/g;
  for (const file of sources(path.join(web, 'src'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(imports)) {
      for (const part of (match[1] ?? '').split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name) used.set(name, path.relative(web, file));
      }
    }
  }
  return used;
}

/** The Mantine core stylesheets the app imports, by component name. */
function importedStylesheets(): Set<string> {
  const imported = new Set<string>();
  for (const file of ['first-screen.ts', 'signed-in.ts']) {
    const text = fs.readFileSync(path.join(web, 'src', 'styles', file), 'utf8');
    for (const m of text.matchAll(/'@mantine\/core\/styles\/(\w+)\.css'/g))
      imported.add(m[1] ?? '');
  }
  return imported;
}

describe('Mantine stylesheets', () => {
  it('imports the stylesheet of every @mantine/core component the app uses', () => {
    const used = usedComponents();
    // The scan sees the app's imports (a broken pattern would find none and pass).
    expect(used.has('Button')).toBe(true);
    const imported = importedStylesheets();
    const missing = [...used]
      .filter(([name]) => fs.existsSync(path.join(mantineStyles, `${name}.css`)))
      .filter(([name]) => !imported.has(name))
      .map(([name, file]) => `${name} (used in ${file})`);
    expect(missing).toEqual([]);
  });

  it('imports only stylesheets that exist', () => {
    const absent = [...importedStylesheets()].filter(
      (name) => !fs.existsSync(path.join(mantineStyles, `${name}.css`)),
    );
    expect(absent).toEqual([]);
  });
});
