import babel from '@rolldown/plugin-babel';
import { reactCompilerPreset } from '@vitejs/plugin-react';

/**
 * React Compiler, for the build and the web tests alike: it memoizes components and values, so a
 * page renders again only what changed (a list page rendered every row again on each of its
 * calls' answers; on a phone that was most of the page's blocking time).
 *
 * Files that use react-hook-form are left as written: its `formState` and `watch` change in place,
 * which the compiler's memoization cannot see (forms stopped showing counters and errors).
 */
export function reactCompiler() {
  const preset = reactCompilerPreset();
  preset.rolldown.filter = {
    code: {
      include: /forwardRef|memo|\b(?:[A-Z]|use[A-Z0-9])/,
      exclude: /from 'react-hook-form'/,
    },
  };
  return babel({ presets: [preset] });
}
