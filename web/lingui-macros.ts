import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';

/**
 * Lingui's macros (t`…`, <Trans>, msg, plural) through Babel, which turns them into catalogue
 * lookups: for web/vite.config.ts and Vitest's web project alike. Only a module that imports a
 * macro goes through Babel; the rest (two thirds of web/src and common, nearly all tests) skip
 * it, where Babel would parse and print them only to hand them back unchanged (the build's
 * output is the same byte for byte, with about a fifth less CPU).
 */
export const linguiMacros = () =>
  babel({
    presets: [
      defineRolldownBabelPreset({
        preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
        // '@lingui/core/macro', '@lingui/react/macro' (and the older '@lingui/macro').
        rolldown: { filter: { code: /["']@lingui\/(?:core\/|react\/)?macro["']/ } },
      }),
    ],
  });
