import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { API_BASE, PATHS, STORAGE_KEYS } from '@master-admin/contract';
import { EARLY_GRANTS } from './src/lib/early-grants.ts';
import { precompress } from './precompress.ts';
import { signedInFirstScreen } from './signed-in-first-screen.ts';

export default defineConfig({
  plugins: [
    react(),
    signedInFirstScreen({
      tokenKey: STORAGE_KEYS.token,
      modules: ['src/app/layout/AppLayout.tsx', 'src/features/dashboard/DashboardPage.tsx'],
      signInPath: '/auth/sign-in',
      earlyReads: [{ global: EARLY_GRANTS, url: `${API_BASE}${PATHS.myPermissions}` }],
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
          ],
        },
      },
    },
  },
});
