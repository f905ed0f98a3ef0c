/**
 * What ProseMirror (the rich-text editor) measures with and jsdom lacks: empty rectangles are
 * enough for it to scroll the selection into view. Imported by tests that type into an editor.
 */
const emptyRects = () => {
  const rects: DOMRect[] = [];
  return Object.assign(rects, { item: () => null }) as unknown as DOMRectList;
};
Range.prototype.getClientRects = emptyRects;
Range.prototype.getBoundingClientRect = () => new DOMRect();
if (!document.elementFromPoint) document.elementFromPoint = () => null;
