import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { reactCompiler } from './react-compiler.ts';
import { API_BASE, PATHS, STORAGE_KEYS } from '@master-admin/contract';
import { EARLY_FACTORS, EARLY_GRANTS } from './src/lib/early-grants.ts';
import { precompress } from './precompress.ts';
import { signedInFirstScreen } from './signed-in-first-screen.ts';

export default defineConfig({
  plugins: [
    react(),
    reactCompiler(),
    signedInFirstScreen({
      tokenKey: STORAGE_KEYS.token,
      modules: ['src/app/layout/AppLayout.tsx', 'src/features/dashboard/DashboardPage.tsx'],
      signInPath: '/auth/sign-in',
      earlyReads: [
        { global: EARLY_GRANTS, url: `${API_BASE}${PATHS.myPermissions}` },
        { global: EARLY_FACTORS, url: `${API_BASE}${PATHS.myFactors}` },
      ],
    }),
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: {
    sourcemap: true,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React on its own: it changes less often than the app (a longer cache life), and
            // no chunk the first screen loads passes 100 kB gzipped.
            { name: 'react', test: /node_modules\/(react|react-dom|scheduler)\// },
            // Everything else the entry loads, in the entry's own file. Left to itself rolldown
            // puts a module the entry loads in a file of its own once a lazily loaded chunk imports
            // it but not the entry's module that imports it (its pass folding shared modules back
            // into the entry skips a fold that would make a cycle, and does not retry it):
            // DATE_MIN/DATE_MAX in the lazy period pickers did that to zod and the contract's
            // fields.ts (imported by auth.ts), one more script on every first load. Mantine's core
            // (CloseButton-*.js) was a file of its own already.
            { name: 'index', tags: ['$initial'] },
            // The dashboard's charts (TrendCharts.tsx, drawn after the page has painted): Recharts
            // and what it is built on come to about 120 kB gzipped, over the 100 kB a chunk may
            // have, so the libraries under it are a chunk of their own, loaded alongside. That
            // group comes first: a group takes in the modules its own modules import.
            {
              name: 'charts-base',
              test: /node_modules\/(@reduxjs|redux|react-redux|reselect|immer|es-toolkit|decimal\.js-light|d3-[a-z-]+|internmap|victory-vendor|eventemitter3|tiny-invariant)\//,
            },
            { name: 'charts', test: /node_modules\/(recharts|@mantine\/charts)\// },
            // The password rule's dictionaries (zxcvbn-ts: the common-password list, about 230 kB gzipped), fetched when a
            // new password is first typed (components/PasswordStrength.tsx), never with a screen:
            // one chunk under a name the budget check (scripts/lighthouse.mjs) allows to be large.
            { name: 'password-dictionaries', test: /node_modules\/@zxcvbn-ts\// },
          ],
        },
      },
    },
  },
});
