// The English sentences alone, without the package's dictionaries (password-strength.ts): the
// package ships this file with types named for `.js`, not `.mjs`.
declare module '@zxcvbn-ts/language-en/dist/translations.mjs' {
  const translations: typeof import('@zxcvbn-ts/language-en').translations;
  export default translations;
}
