import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { reactCompiler } from './react-compiler.ts';

export default defineConfig({
  // The app as it ships: compiled by React Compiler.
  plugins: [react(), reactCompiler()],
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    css: false,
    testTimeout: 15_000,
    // A fresh jsdom and module graph per file cost more than the tests (suite on two cores: 169 s
    // against 51–59 s); test/setup.ts resets what a file leaves behind (DOM, handlers, toasts).
    isolate: false,
    maxWorkers: os.availableParallelism(),
  },
});
