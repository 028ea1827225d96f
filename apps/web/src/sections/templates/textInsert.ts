/** Caret-aware edits of a text field (insert a variable, wrap a selection, jump to a line) that keep the user's place. */

type Field = HTMLTextAreaElement | HTMLInputElement;

/** A piece of text to insert; `select` is the part of it to leave selected, for the user to type over. */
export interface Snippet {
  text: string;
  select?: [number, number];
}

function refocus(element: Field | null | undefined, from: number, to: number): void {
  // After the controlled value has been re-rendered, or the caret would land at the end.
  requestAnimationFrame(() => {
    if (!element) return;
    element.focus();
    element.setSelectionRange(from, to);
  });
}

/** Replaces the selection (or inserts at the caret, or at the end when the field was never focused). */
export function insertSnippet(
  element: Field | null | undefined,
  current: string,
  snippet: Snippet,
  apply: (next: string) => void,
): void {
  const start = element?.selectionStart ?? current.length;
  const end = element?.selectionEnd ?? start;
  apply(current.slice(0, start) + snippet.text + current.slice(end));
  const [from, to] = snippet.select ?? [snippet.text.length, snippet.text.length];
  refocus(element, start + from, start + to);
}

/** Puts markers around the selection, or around a placeholder word left selected when nothing is selected. */
export function wrapSelection(
  element: Field | null | undefined,
  current: string,
  before: string,
  after: string,
  placeholder: string,
  apply: (next: string) => void,
): void {
  const start = element?.selectionStart ?? current.length;
  const end = element?.selectionEnd ?? start;
  const inner = start === end ? placeholder : current.slice(start, end);
  apply(current.slice(0, start) + before + inner + after + current.slice(end));
  refocus(element, start + before.length, start + before.length + inner.length);
}

/** Offset of a 1-based line and column in a text. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}
