/**
 * The one sandboxed LiquidJS setup of Herald: templates see only plain data ({contact, vars}), read own
 * properties only, cannot reach files, and every render is bounded in time, allocation and output size.
 * Templates are parsed once (compileTemplate) and rendered per recipient by the sending engine.
 */
import type { ChannelCategory } from '@herald/shared';
import { compile as compileHtmlToText } from 'html-to-text';
import {
  Context,
  type Emitter,
  Liquid,
  LiquidError,
  type Template,
  TypeGuards,
  toValue,
  toValueSync,
  type Variable,
} from 'liquidjs';

export const TEMPLATE_LIMITS = {
  /** Largest template the API stores, all parts together (UTF-8 bytes). */
  sourceBytes: 5 * 1024 * 1024,
  /** Longest rendered part, in characters. */
  outputChars: 10 * 1024 * 1024,
  /** Time one part may take to render. */
  renderMs: 500,
  /** LiquidJS allocation units per part: characters built by filters plus items of ranges and arrays. */
  memory: 20_000_000,
} as const;

export type TemplatePart = 'subject' | 'html' | 'text' | 'smsText';

/** The parts each channel sends; the others are kept but neither checked nor rendered. */
export const CHANNEL_PARTS: Record<ChannelCategory, readonly TemplatePart[]> = {
  EMAIL: ['subject', 'html', 'text'],
  SMS: ['smsText'],
};

export interface TemplateSource {
  channel: ChannelCategory;
  subject: string;
  html: string;
  text: string;
  smsText: string;
}

export interface TemplateContact {
  id?: number;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  language?: string | null;
  timeZone?: string | null;
  attributes?: Record<string, unknown>;
}

export interface RenderContext {
  contact: TemplateContact;
  vars: Record<string, string>;
  /** The recipient's signed unsubscribe link in a campaign message; a placeholder in previews and tests. */
  unsubscribe_url?: string;
}

export interface RenderedTemplate {
  subject: string;
  html: string;
  text: string;
  smsText: string;
}

export type CompiledTemplate = (context: RenderContext) => RenderedTemplate;

/** What `contact.<field>` may name; anything under contact.attributes is free-form. */
export const CONTACT_FIELDS: readonly string[] = ['id', 'name', 'email', 'phone', 'language', 'timeZone', 'attributes'];
/** Objects a template may read fields of, and plain values it may print. */
const ROOTS = new Set(['contact', 'vars']);
const VALUES = new Set(['unsubscribe_url']);

export class TemplateSyntaxError extends Error {
  constructor(
    readonly part: TemplatePart,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${part}: ${detail} (line ${line}, column ${column})`);
  }
}

/** A render that broke a limit (time, memory, output size) or failed in a filter. */
export class TemplateRenderError extends Error {
  constructor(
    readonly part: TemplatePart,
    readonly detail: string,
  ) {
    super(`${part}: ${detail}`);
  }
}

export type TemplateProblem =
  | { part: TemplatePart; kind: 'syntax'; line: number; column: number; detail: string }
  | { part: TemplatePart; kind: 'unknownVariable'; line: number; column: number; name: string };

const FILE_TAGS = ['include', 'render', 'layout'];

function createEngine(escapeOutput: boolean): Liquid {
  const engine = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    // No file system: the file tags are removed below and any lookup finds nothing.
    templates: {},
    cache: false,
    outputEscape: escapeOutput ? 'escape' : undefined,
    parseLimit: TEMPLATE_LIMITS.sourceBytes,
    renderLimit: TEMPLATE_LIMITS.renderMs,
    memoryLimit: TEMPLATE_LIMITS.memory,
  });
  for (const tag of FILE_TAGS) delete engine.tags[tag];
  if (escapeOutput) {
    // Output is escaped once automatically, so the explicit filters must not escape a second time.
    engine.registerFilter('escape', (value: unknown) => value);
    engine.registerFilter('escape_once', (value: unknown) => value);
  }
  return engine;
}

/** HTML output escapes every value ({{ x | raw }} opts out, e.g. for a captured block); subject, text and SMS are plain text. */
const htmlEngine = createEngine(true);
const textEngine = createEngine(false);
const engineFor = (part: TemplatePart) => (part === 'html' ? htmlEngine : textEngine);

const POSITION_SUFFIX = /, (?:file:[^,]*, )?line:\d+, col:\d+$/;

function syntaxErrorOf(part: TemplatePart, error: unknown): TemplateSyntaxError {
  const message = error instanceof Error ? error.message : String(error);
  const position = LiquidError.is(error)
    ? (error as LiquidError & { token?: { getPosition(): number[] } }).token?.getPosition()
    : undefined;
  return new TemplateSyntaxError(part, position?.[0] ?? 1, position?.[1] ?? 1, message.replace(POSITION_SUFFIX, ''));
}

function parsePart(part: TemplatePart, source: string): Template[] {
  try {
    return engineFor(part).parse(source);
  } catch (error) {
    throw syntaxErrorOf(part, error);
  }
}

/** LiquidJS's own stringification of an output value, so a capped emitter writes the same text. */
function stringify(value: unknown): string {
  const plain = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringify).join('');
  // Data may hold a key named toString or valueOf (a contact attribute), which String() would try to call.
  if (typeof plain === 'object') return Object.prototype.toString.call(plain);
  return String(plain);
}

const outputTooLarge = () => new Error(`output size limit exceeded (${TEMPLATE_LIMITS.outputChars / 1024 / 1024} M characters)`);

class CappedEmitter implements Emitter {
  buffer = '';
  write(html: unknown): void {
    const text = stringify(html);
    if (this.buffer.length + text.length > TEMPLATE_LIMITS.outputChars) throw outputTooLarge();
    this.buffer += text;
  }
}

const RENDER_OPTIONS = { sync: true } as const;

function renderPart(part: TemplatePart, templates: Template[], scope: RenderContext): string {
  const engine = engineFor(part);
  const emitter = new CappedEmitter();
  try {
    toValueSync(
      engine.renderer.renderTemplates(templates, new Context(scope, engine.options, RENDER_OPTIONS, { liquid: engine }), emitter),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TemplateRenderError(part, message.replace(POSITION_SUFFIX, ''));
  }
  return emitter.buffer;
}

/**
 * Most parts are literal HTML and plain {{ a.b.c }} outputs. Those are rendered here, reading values with
 * LiquidJS's own property rules but without its generator machinery, which costs more than the HTML itself;
 * anything else (tags, filters, brackets, literals) takes LiquidJS's path.
 */
type Piece = string | readonly string[];
const PLAIN_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const LITERAL_WORDS = new Set(['nil', 'null', 'true', 'false', 'empty', 'blank']);
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

function plainPieces(templates: Template[]): Piece[] | null {
  const pieces: Piece[] = [];
  for (const { token } of templates) {
    if (TypeGuards.isHTMLToken(token)) pieces.push(token.getContent());
    else if (TypeGuards.isOutputToken(token) && PLAIN_PATH.test(token.content)) {
      const path = token.content.split('.');
      if (LITERAL_WORDS.has(path[0]!)) return null;
      pieces.push(path);
    } else return null;
  }
  return pieces;
}

function renderPlain(part: TemplatePart, pieces: readonly Piece[], scope: RenderContext): string {
  const engine = engineFor(part);
  const context = new Context(scope, engine.options, RENDER_OPTIONS, { liquid: engine });
  let output = '';
  try {
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        output += piece;
        continue;
      }
      let value: unknown = scope;
      for (const key of piece) value = context.readProperty(value as object, key);
      const text = stringify(value);
      output += part === 'html' ? text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!) : text;
    }
  } catch (error) {
    // The same clean error as LiquidJS's own path gives for whatever the data holds.
    throw new TemplateRenderError(part, error instanceof Error ? error.message : String(error));
  }
  if (output.length > TEMPLATE_LIMITS.outputChars) throw new TemplateRenderError(part, outputTooLarge().message);
  return output;
}

function compilePart(part: TemplatePart, source: string): (scope: RenderContext) => string {
  const templates = parsePart(part, source);
  const pieces = plainPieces(templates);
  return pieces ? (scope) => renderPlain(part, pieces, scope) : (scope) => renderPart(part, templates, scope);
}

/**
 * Parses the channel's parts once; the answer renders one recipient. Throws TemplateSyntaxError when a part
 * does not parse, and the renderer throws TemplateRenderError when a limit is hit. Missing values render empty.
 */
export function compileTemplate(source: TemplateSource): CompiledTemplate {
  const compiled = new Map(CHANNEL_PARTS[source.channel].map((part) => [part, compilePart(part, source[part])] as const));
  const render = (part: TemplatePart, scope: RenderContext) => compiled.get(part)?.(scope) ?? '';
  return (scope) => ({
    // A subject is one header line whatever the data holds.
    subject: render('subject', scope).replace(/[\r\n]+/g, ' '),
    html: render('html', scope),
    text: render('text', scope),
    smsText: render('smsText', scope),
  });
}

function literalSegments(variable: Variable): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const segment of variable.segments) {
    if (typeof segment !== 'string' && typeof segment !== 'number') break;
    segments.push(segment);
  }
  return segments;
}

/** Why a global variable is not allowed, or null: only contact.<known field>, vars.<existing variable> and unsubscribe_url. */
function unknownName(variable: Variable, variableNames: ReadonlySet<string>): string | null {
  const [root, field] = literalSegments(variable);
  if (typeof root === 'string' && VALUES.has(root)) return field === undefined ? null : String(variable);
  if (typeof root !== 'string' || !ROOTS.has(root)) return String(variable);
  if (field === undefined) return null;
  if (root === 'contact' && !CONTACT_FIELDS.includes(String(field))) return `contact.${field}`;
  if (root === 'vars' && !variableNames.has(String(field))) return `vars.${field}`;
  return null;
}

/**
 * The strict check run on save: every part of the channel must parse, and every variable must be a known
 * contact field or one of the account's variables. Answers every problem found, in order.
 */
export function checkTemplate(source: TemplateSource, variableNames: ReadonlySet<string>): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  for (const part of CHANNEL_PARTS[source.channel]) {
    let templates: Template[];
    try {
      templates = parsePart(part, source[part]);
    } catch (error) {
      const { line, column, detail } = error as TemplateSyntaxError;
      problems.push({ part, kind: 'syntax', line, column, detail });
      continue;
    }
    const { globals } = engineFor(part).analyzeSync(templates, { partials: false });
    for (const variable of Object.values(globals).flat()) {
      const name = unknownName(variable, variableNames);
      if (name)
        problems.push({ part, kind: 'unknownVariable', line: variable.location.row, column: variable.location.col, name });
    }
  }
  return problems;
}

// Liquid markup is swapped for inert words while the HTML is converted, so no tag is lost, reordered or re-cased.
const LIQUID_MARKUP = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const PLACEHOLDER = /HERALDLIQUID(\d+)Z/g;
const htmlToText = compileHtmlToText({
  wordwrap: 78,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

/** Text that happens to contain Liquid delimiters (e.g. decoded from &#123;&#123;) is kept literal. */
function literalText(text: string): string {
  return text.replace(/\{\{|\{%/g, (delimiter) => `{{ '${delimiter}' }}`);
}

/**
 * The plain-text part derived from an HTML template: a Liquid template itself, with the HTML's tags and
 * outputs kept in place, so it is generated once on save rather than per recipient.
 */
export function plainTextFromHtml(html: string): string {
  const markup: string[] = [];
  const protectedHtml = html.replace(LIQUID_MARKUP, (found) => `HERALDLIQUID${markup.push(found) - 1}Z`);
  const converted = htmlToText(protectedHtml);
  let text = '';
  let last = 0;
  for (const match of converted.matchAll(PLACEHOLDER)) {
    text += literalText(converted.slice(last, match.index)) + (markup[Number(match[1])] ?? match[0]);
    last = match.index + match[0].length;
  }
  return text + literalText(converted.slice(last));
}
