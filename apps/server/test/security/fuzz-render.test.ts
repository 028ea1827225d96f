/**
 * Property-based checks of the sandboxed template renderer: arbitrary templates (random text, Liquid syntax, known
 * escape attempts through constructors, prototypes, globals and file tags, huge loops) with arbitrary data always
 * answer rendered strings or one of the renderer's own errors, in bounded time and size, and never reach the process.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTemplate,
  compileTemplate,
  type RenderContext,
  TEMPLATE_LIMITS,
  TemplateRenderError,
  TemplateSyntaxError,
} from '../../src/templates/render.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

/** Values that must never show in any output: an environment variable and a global of this process. */
const ENV_CANARY = `env-canary-${Math.random().toString(36).slice(2)}`;
const GLOBAL_CANARY = `global-canary-${Math.random().toString(36).slice(2)}`;
const FORBIDDEN_OUTPUT = [ENV_CANARY, GLOBAL_CANARY, '[native code]', 'function Object', 'function Function', 'process.env'];
/** A render on a busy machine may take a while; the renderer's own limit is 500 ms a part. */
const RENDER_WALL_MS = 10_000;

const globals = globalThis as Record<string, unknown>;
beforeAll(() => {
  process.env.HERALD_FUZZ_CANARY = ENV_CANARY;
  globals.heraldFuzzCanary = GLOBAL_CANARY;
});
afterAll(() => {
  delete process.env.HERALD_FUZZ_CANARY;
  delete globals.heraldFuzzCanary;
});

const paths = fc.constantFrom(
  'contact.name',
  'contact.email',
  'contact.attributes.city',
  'contact.attributes',
  'vars.brand',
  'vars',
  'contact',
  'constructor',
  'contact.constructor',
  'contact.constructor.constructor',
  'contact.name.constructor',
  'contact["constructor"]["constructor"]',
  'contact.__proto__',
  'vars["__proto__"]',
  'contact.attributes.__proto__.polluted',
  'this',
  'global',
  'globalThis',
  'globalThis.heraldFuzzCanary',
  'heraldFuzzCanary',
  'process',
  'process.env',
  'process.env.HERALD_FUZZ_CANARY',
  'require',
  'module',
  'forloop',
  'empty',
  'nil',
  '(1..5)',
  '"text"',
  '42',
);

const filters = fc.constantFrom(
  'upcase',
  'downcase',
  'size',
  'first',
  'last',
  'json',
  'escape',
  'raw',
  'strip_html',
  'url_encode',
  'append: "x"',
  'prepend: contact.name',
  'replace: "a", "b"',
  'split: ""',
  'join: ","',
  'map: "constructor"',
  'where: "constructor"',
  'sort',
  'reverse',
  'date: "%Y"',
  'default: "none"',
  'times: 1000000',
  'slice: 0, 3',
  'truncate: 5',
  'no_such_filter',
);

const output = fc
  .tuple(paths, fc.array(filters, { maxLength: 3 }))
  .map(([path, chain]) => `{{ ${[path, ...chain].join(' | ')} }}`);

const tags = fc.oneof(
  paths.map((path) => `{% assign x = ${path} %}{{ x }}`),
  fc
    .tuple(paths, fc.integer({ min: 0, max: 2_000_000_000 }))
    .map(([path, n]) => `{% for i in (1..${n}) %}{{ ${path} }}{% endfor %}`),
  paths.map((path) => `{% for item in ${path} %}{{ item }}{{ forloop.index }}{% endfor %}`),
  paths.map((path) => `{% if ${path} %}yes{% else %}no{% endif %}`),
  paths.map((path) => `{% capture c %}{{ ${path} }}{% endcapture %}{{ c | append: c | append: c }}`),
  fc.constantFrom(
    "{% include 'secret' %}",
    "{% render '/etc/passwd' %}",
    "{% layout 'x' %}",
    '{% raw %}{{ contact.name }}{% endraw %}',
    '{% liquid assign y = contact.name\necho y %}',
    '{% cycle "a", "b" %}',
    '{% increment counter %}',
    '{% tablerow i in (1..3) %}{{ i }}{% endtablerow %}',
    '{% comment %}{{ process }}{% endcomment %}',
    '{% assign s = "x" %}{% for i in (1..30) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}',
    '{{ "{{" }}',
    '{%',
    '{{',
    '}}',
    '{% endfor %}',
    '{% for %}',
  ),
);

const template = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ maxLength: 20 }), output, tags), { maxLength: 8 })
  .map((pieces) => pieces.join(''));

/** Render data comes from JSON (stored attributes, request bodies), so its objects have the usual prototype. */
const scope: fc.Arbitrary<RenderContext> = fc.record(
  {
    contact: fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null)),
        email: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null)),
        attributes: fc.dictionary(
          fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'city', 'toString')),
          fc.string({ maxLength: 30 }),
          { maxKeys: 4, noNullPrototype: true },
        ),
      },
      { noNullPrototype: true },
    ),
    vars: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'brand', 'valueOf')),
      fc.string({ maxLength: 30 }),
      { maxKeys: 4, noNullPrototype: true },
    ),
  },
  { noNullPrototype: true },
);

/** Renders and answers the outcome; anything but the renderer's own errors fails the property. */
function renderOutcome(
  source: { channel: 'EMAIL' | 'SMS'; subject: string; html: string; text: string; smsText: string },
  data: RenderContext,
) {
  let render: ReturnType<typeof compileTemplate>;
  try {
    render = compileTemplate(source);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateSyntaxError);
    return null;
  }
  const started = performance.now();
  try {
    const rendered = render(data);
    for (const part of Object.values(rendered)) {
      expect(typeof part).toBe('string');
      expect(part.length).toBeLessThanOrEqual(TEMPLATE_LIMITS.outputChars);
      for (const forbidden of FORBIDDEN_OUTPUT) expect(part).not.toContain(forbidden);
    }
    return rendered;
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(TemplateRenderError);
    return null;
  } finally {
    expect(performance.now() - started).toBeLessThan(RENDER_WALL_MS);
  }
}

const prototypeKeys = () =>
  [Object.prototype, Function.prototype, Array.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort());

describe('the template renderer under arbitrary input', () => {
  it('answers strings or its own error, in bounded time and size, without reaching the process', () => {
    const before = prototypeKeys();
    fc.assert(
      fc.property(
        template,
        template,
        scope,
        fc.constantFrom('EMAIL' as const, 'SMS' as const),
        (html, subject, data, channel) => {
          renderOutcome({ channel, subject, html, text: html, smsText: html }, data);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 400 },
    );
    expect(prototypeKeys()).toEqual(before);
  }, 300_000);

  it('renders data whose keys are named like Object methods (an attribute called toString)', () => {
    for (const key of ['toString', 'valueOf', 'constructor', 'hasOwnProperty']) {
      const data = { contact: { attributes: { [key]: 'x' } }, vars: { [key]: 'y' } };
      for (const html of ['{{ contact.attributes }}', `{{ vars.${key} }}`, '{{ vars }}']) {
        const rendered = renderOutcome({ channel: 'EMAIL', subject: '', html, text: '', smsText: '' }, data);
        expect(rendered, `${key}: ${html}`).not.toBeNull();
      }
      // Through filters LiquidJS itself stringifies the object: a clean render error at worst.
      renderOutcome(
        { channel: 'EMAIL', subject: '', html: '{{ contact.attributes | default: "-" }}', text: '', smsText: '' },
        data,
      );
    }
  });

  it('stops at the output limit whichever way the output grows', () => {
    const big = 'x'.repeat(1024 * 1024);
    const data = { contact: { attributes: { big } }, vars: { big } };
    fc.assert(
      fc.property(
        fc.constantFrom(
          (n: number) => `{% for i in (1..${n}) %}{{ vars.big }}{% endfor %}`,
          (n: number) => Array.from({ length: n }, () => '{{ vars.big }}').join(''),
          (n: number) => Array.from({ length: n }, () => '{{ contact.attributes.big | append: "" }}').join(''),
        ),
        fc.integer({ min: 1, max: 14 }),
        (shape, n) => {
          const rendered = renderOutcome({ channel: 'SMS', subject: '', html: '', text: '', smsText: shape(n) }, data);
          if (n * big.length > TEMPLATE_LIMITS.outputChars) expect(rendered).toBeNull();
          else expect(rendered?.smsText.length).toBe(n * big.length);
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);

  it('escapes every value it puts into HTML', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        const rendered = renderOutcome(
          { channel: 'EMAIL', subject: '', html: '<p>{{ contact.name }}|{{ contact.name | upcase }}</p>', text: '', smsText: '' },
          { contact: { name }, vars: {} },
        );
        expect(rendered).not.toBeNull();
        const inner = rendered!.html.slice(3, -4);
        expect(inner).not.toMatch(/[<>"']/);
      }),
      { numRuns: 300 },
    );
  });

  it('checks any template on save without throwing', () => {
    fc.assert(
      fc.property(template, (source) => {
        const problems = checkTemplate(
          { channel: 'EMAIL', subject: source, html: source, text: source, smsText: '' },
          new Set(['brand']),
        );
        for (const problem of problems) expect(['syntax', 'unknownVariable']).toContain(problem.kind);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('the preview route under arbitrary templates', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await signUp(t.app)).token;
  });
  afterAll(async () => t.close());

  it('previews a contact whose attribute is called toString', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/templates/preview',
      headers: { 'x-token': token },
      payload: {
        channel: 'EMAIL',
        subject: 'Hi',
        html: '<p>{{ contact.attributes }}</p>',
        sample: { contact: { attributes: { toString: 'x' } } },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers a preview or a field error, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(template, template, scope, async (html, subject, data) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/data/templates/preview',
          headers: { 'x-token': token },
          payload: { channel: 'EMAIL', subject, html, sample: { contact: data.contact, vars: data.vars } },
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
        if (res.statusCode === 200) for (const forbidden of FORBIDDEN_OUTPUT) expect(res.body).not.toContain(forbidden);
        else
          expect(res.json()).toMatchObject({ statusCode: res.statusCode, key: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: 150 },
    );
  }, 300_000);
});
