/** Types for arabic-persian-reshaper (CommonJS, ships none): the part the renderer uses. */
declare module 'arabic-persian-reshaper' {
  const reshaper: {
    ArabicShaper: {
      /** Arabic letters replaced by their contextual presentation forms (Arabic Presentation Forms-B), lam-alef ligated. */
      convertArabic(text: string): string;
    };
  };
  export default reshaper;
}
