/**
 * What an engine knows of the elements it made, for a reader that would otherwise ask each
 * element for its keys (the document builder's compact body, worker/services/compact-body.ts,
 * which writes the two usual elements field by field): per canvas, one kind per element.
 * `USUAL_DEBUG`: the element's own keys are exactly `DEBUG_KEYS`, in that order; `USUAL_TEXT`:
 * exactly `TEXT_KEYS`; `OTHER`: not said (the reader looks). The kinds travel beside the
 * canvases (`RenderedJob.elementKinds`; not in them: the canvas is the contract's), recorded by
 * the receipt engines' job document as it adds elements; nothing adds or removes an element's
 * keys after that.
 */
export const OTHER = 0, USUAL_DEBUG = 1, USUAL_TEXT = 2;
export type ElementKind = typeof OTHER | typeof USUAL_DEBUG | typeof USUAL_TEXT;

export const DEBUG_KEYS: readonly string[] = ['type', 'debugType', 'parameters', 'commandRaw', 'commandDescription', 'lengthInBytes'];
export const TEXT_KEYS: readonly string[] = [
  'type', 'text', 'x', 'y', 'width', 'height', 'fontName', 'charSpacing', 'isBold', 'isUnderline', 'isReverse', 'charScaleX', 'charScaleY',
  'rotation', 'commandRaw', 'commandDescription', 'lengthInBytes',
];
