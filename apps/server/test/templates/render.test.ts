import { Liquid } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  compileTemplate,
  plainTextFromHtml,
  type RenderContext,
  TEMPLATE_LIMITS,
  TemplateRenderError,
  type TemplateSource,
  TemplateSyntaxError,
} from '../../src/templates/render.js';

const email = (over: Partial<TemplateSource> = {}): TemplateSource => ({
  channel: 'EMAIL',
  subject: '',
  html: '',
  text: '',
  smsText: '',
  ...over,
});
const sms = (smsText: string): TemplateSource => ({ channel: 'SMS', subject: '', html: '', text: '', smsText });

const context: RenderContext = {
  contact: {
    name: 'Ann',
    email: 'ann@example.com',
    phone: '+15550100100',
    language: 'en',
    timeZone: 'UTC',
    attributes: { city: 'Lisbon', score: 7, tags: ['a', 'b'] },
  },
  vars: { company: 'Acme & Co' },
};

const renderSms = (source: string, scope: RenderContext = context) => compileTemplate(sms(source))(scope).smsText;

function renderError(source: string, scope: RenderContext = context): TemplateRenderError {
  try {
    renderSms(source, scope);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateRenderError);
    return error as TemplateRenderError;
  }
  throw new Error('rendered without an error');
}

describe('variables, filters and defaults', () => {
  it('renders contact fields, attributes and account variables in every part', () => {
    const render = compileTemplate(
      email({
        subject: 'Hi {{ contact.name }}',
        html: '<p>{{ contact.attributes.city }} / {{ vars.company }}</p>',
        text: '{{ contact.email }} {{ vars.company }}',
      }),
    );
    expect(render(context)).toEqual({
      subject: 'Hi Ann',
      html: '<p>Lisbon / Acme &amp; Co</p>',
      text: 'ann@example.com Acme & Co',
      smsText: '',
    });
  });

  it('applies filters, loops and conditions', () => {
    expect(renderSms('{{ contact.name | upcase }} {{ contact.attributes.score | plus: 1 }}')).toBe('ANN 8');
    expect(renderSms('{% for t in contact.attributes.tags %}[{{ t }}]{% endfor %}')).toBe('[a][b]');
    expect(renderSms('{% if contact.attributes.score > 5 %}high{% else %}low{% endif %}')).toBe('high');
    expect(renderSms('{% assign n = contact.name | downcase %}{{ n }}-{{ n.size }}')).toBe('ann-3');
  });

  it('renders missing values empty and lets default fill them', () => {
    expect(renderSms('[{{ contact.attributes.missing }}]')).toBe('[]');
    expect(renderSms('{{ contact.attributes.plan | default: "free" }}')).toBe('free');
    expect(renderSms('{{ vars.nothing | default: "n/a" }}')).toBe('n/a');
    const bare = renderSms('[{{ contact.name }}|{{ contact.attributes.city }}]', { contact: {}, vars: {} });
    expect(bare).toBe('[|]');
  });

  it('escapes values in HTML once, keeps raw on request, and leaves text parts alone', () => {
    const hostile: RenderContext = { contact: { name: '<b>"Tom" & Jerry</b>' }, vars: { footer: '<i>f</i>' } };
    const render = compileTemplate(
      email({
        subject: '{{ contact.name }}',
        html: '{{ contact.name }}|{{ contact.name | escape }}|{{ vars.footer | raw }}',
        text: '{{ contact.name }}',
      }),
    );
    const out = render(hostile);
    expect(out.html).toBe('&lt;b&gt;&#34;Tom&#34; &amp; Jerry&lt;/b&gt;|&lt;b&gt;&#34;Tom&#34; &amp; Jerry&lt;/b&gt;|<i>f</i>');
    expect(out.subject).toBe('<b>"Tom" & Jerry</b>');
    expect(out.text).toBe('<b>"Tom" & Jerry</b>');
  });

  it('keeps a subject on one line whatever the data holds', () => {
    const render = compileTemplate(email({ subject: 'Hi {{ contact.name }}', html: 'x' }));
    expect(render({ contact: { name: 'Ann\r\nBcc: x@evil.test' }, vars: {} }).subject).toBe('Hi Ann Bcc: x@evil.test');
  });

  it('renders only the parts of the channel', () => {
    const render = compileTemplate({
      channel: 'SMS',
      subject: '{{ x',
      html: '{% if %}',
      text: '',
      smsText: 'Hi {{ contact.name }}',
    });
    expect(render(context)).toEqual({ subject: '', html: '', text: '', smsText: 'Hi Ann' });
  });
});

describe('the plain-output fast path', () => {
  // LiquidJS itself, configured like Herald's engines, is the reference the fast path must match exactly.
  const reference = {
    html: new Liquid({ ownPropertyOnly: true, outputEscape: 'escape' }),
    text: new Liquid({ ownPropertyOnly: true }),
  };
  const data: RenderContext = {
    contact: {
      name: `<O'Neil & "Co">`,
      email: null,
      attributes: {
        tags: ['x', '<y>'],
        nested: { deep: { value: 42 } },
        flag: false,
        nothing: null,
        object: { a: 1 },
        ...(JSON.parse('{"__proto__": {"p": 1}, "constructor": "own"}') as Record<string, unknown>),
      },
    },
    vars: { company: 'Acme' },
  };
  const sources = [
    'Hi {{ contact.name }}!',
    '{{ contact.attributes.tags }}|{{ contact.attributes.tags.size }}|{{ contact.attributes.tags.first }}|{{ contact.attributes.tags.last }}',
    '{{ contact.attributes.nested.deep.value }}|{{ contact.attributes.flag }}|{{ contact.attributes.nothing }}|{{ contact.attributes.object }}',
    '{{ contact.email }}|{{ contact.missing.deeper }}|{{ nobody }}|{{ contact.name.size }}|{{ contact.name.length }}',
    '{{ contact.constructor }}|{{ contact.__proto__ }}|{{ vars.toString }}|{{ contact.attributes.constructor }}|{{ contact.attributes.__proto__.p }}',
    '<p>\n  {{- contact.name -}}  \n</p>  {{ vars.company }}',
    '{{ contact }}{{ vars }}',
  ];

  it.each(sources)('renders %s exactly as LiquidJS does', (source) => {
    const render = compileTemplate(email({ subject: source, html: source, text: source }));
    const out = render(data);
    expect(out.html).toBe(reference.html.parseAndRenderSync(source, data));
    expect(out.text).toBe(reference.text.parseAndRenderSync(source, data));
  });
});

describe('syntax errors', () => {
  function syntaxError(source: TemplateSource): TemplateSyntaxError {
    try {
      compileTemplate(source);
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      return error as TemplateSyntaxError;
    }
    throw new Error('compiled without an error');
  }

  it('names the part, line and column', () => {
    const error = syntaxError(email({ subject: 'ok', html: '<p>\n  <b>{% if contact.name %}</b>\n</p>' }));
    expect(error).toMatchObject({ part: 'html', line: 2, column: 6 });
    expect(error.detail).toContain('not closed');
  });

  it('refuses unknown filters and unclosed outputs', () => {
    expect(syntaxError(sms('a\nb {{ contact.name | shout }}'))).toMatchObject({ part: 'smsText', line: 2, column: 3 });
    expect(syntaxError(sms('{{ contact.name'))).toMatchObject({ part: 'smsText', line: 1, column: 1 });
  });

  it('has no file tags: include, render and layout do not parse', () => {
    for (const tag of ['{% include "/etc/passwd" %}', "{% render 'secrets' %}", '{% layout "x" %}']) {
      expect(syntaxError(sms(tag)).detail).toMatch(/not found/);
    }
  });
});

describe('the save-time check', () => {
  it('accepts known contact fields, attributes, existing variables and locals', () => {
    const source = email({
      subject: '{{ contact.name }} {{ vars.company }}',
      html: '{% assign x = contact.attributes.anything.deep %}{{ x }}{% for t in contact.attributes.tags %}{{ t }}{{ forloop.index }}{% endfor %}{% capture c %}{{ contact.email }}{% endcapture %}{{ c }}',
      text: '{{ contact }} {{ vars }} {{ contact.timeZone }}',
    });
    expect(checkTemplate(source, new Set(['company']))).toEqual([]);
  });

  it('reports every unknown variable with its position', () => {
    const source = email({
      subject: '{{ firstName }}',
      html: '<p>\n {{ contact.nmae }} {{ vars.company }} {{ vars.missing }}</p>',
      text: '{{ contact.name }}',
    });
    expect(checkTemplate(source, new Set(['company']))).toEqual([
      { part: 'subject', kind: 'unknownVariable', line: 1, column: 4, name: 'firstName' },
      { part: 'html', kind: 'unknownVariable', line: 2, column: 5, name: 'contact.nmae' },
      { part: 'html', kind: 'unknownVariable', line: 2, column: 43, name: 'vars.missing' },
    ]);
  });

  it('reports a syntax error per part and goes on with the others', () => {
    const problems = checkTemplate(email({ subject: '{{ x }', html: '{{ vars.y }}', text: 'fine' }), new Set());
    expect(problems).toEqual([
      expect.objectContaining({ part: 'subject', kind: 'syntax', line: 1, column: 1 }),
      expect.objectContaining({ part: 'html', kind: 'unknownVariable', name: 'vars.y' }),
    ]);
  });
});

describe('hostile templates', () => {
  it('cannot reach prototypes, constructors or methods', () => {
    const out = renderSms(
      '[{{ contact.constructor.constructor }}|{{ contact.__proto__ }}|{{ contact.toString }}|{{ contact.name.constructor }}|{{ vars.hasOwnProperty }}]',
    );
    expect(out).toBe('[||||]');
    expect(() => renderSms('{{ contact.constructor.constructor("return process")() }}')).toThrow(TemplateSyntaxError);
    expect(renderSms('{{ contact.attributes.tags.constructor.name }}{{ contact.name.__proto__.length }}')).toBe('');
  });

  it('does not treat a "__proto__" key in data as a prototype', () => {
    const attributes = JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>;
    expect(renderSms('{{ contact.attributes.polluted }}|{{ contact.polluted }}', { contact: { attributes }, vars: {} })).toBe(
      '|',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops an endless-looking loop within the time limit', () => {
    const started = performance.now();
    const error = renderError(
      '{% for a in (1..3000) %}{% for b in (1..3000) %}{% for c in (1..3000) %}{% endfor %}{% endfor %}{% endfor %}',
    );
    expect(error.detail).toMatch(/limit exceeded/);
    expect(performance.now() - started).toBeLessThan(TEMPLATE_LIMITS.renderMs * 4);
  });

  it('refuses a huge range before allocating it', () => {
    expect(renderError('{% for i in (1..1000000000) %}x{% endfor %}').detail).toMatch(/memory alloc limit exceeded/);
  });

  it('caps the output size', () => {
    const block = 'x'.repeat(100_000);
    const error = renderError(`{% for i in (1..1000) %}${block}{% endfor %}`);
    expect(error.detail).toMatch(/output size limit exceeded/);
  });

  it('stops strings that double on every step', () => {
    expect(
      renderError('{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}').detail,
    ).toMatch(/limit exceeded/);
    const captured = renderError(
      '{% capture s %}xxxxxxxxxx{% endcapture %}{% for i in (1..40) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s }}',
    );
    expect(captured.detail).toMatch(/limit exceeded|Invalid string length/);
  });
});

describe('the plain-text part generated from HTML', () => {
  it('keeps Liquid markup intact and in place', () => {
    const text = plainTextFromHtml(
      '<html><head><title>t</title><style>p{}</style></head><body><h1>Hi {{ contact.name }}</h1><p>Visit <a href="{{ vars.url }}">us</a> &amp; <img src="p.gif" alt="pixel">more</p><table>{% for t in contact.attributes.tags %}<tr><td>{{ t | upcase }}</td></tr>{% endfor %}</table></body></html>',
    );
    expect(text).toBe(
      'HI {{ contact.name }}\n\nVisit us [{{ vars.url }}] & more\n\n{% for t in contact.attributes.tags %}{{ t | upcase }}{% endfor %}',
    );
    const render = compileTemplate(email({ html: 'x', text }));
    expect(render({ contact: { name: 'Ann', attributes: { tags: ['a'] } }, vars: { url: 'https://x.test/?a=1&b=2' } }).text).toBe(
      'HI Ann\n\nVisit us [https://x.test/?a=1&b=2] & more\n\nA',
    );
  });

  it('keeps Liquid delimiters that were only text in the HTML literal', () => {
    const text = plainTextFromHtml('<p>&#123;&#123; not a variable &#125;&#125;</p>');
    expect(compileTemplate(email({ html: 'x', text }))(context).text).toBe('{{ not a variable }}');
  });
});
