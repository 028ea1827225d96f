/** The part of the untyped `html-to-text` package (v10) that Herald uses. */
declare module 'html-to-text' {
  export interface SelectorDefinition {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }

  export interface HtmlToTextOptions {
    wordwrap?: number | false | null;
    selectors?: SelectorDefinition[];
  }

  /** Builds the converter once; the answer converts one document. */
  export function compile(options?: HtmlToTextOptions): (html: string) => string;
}
