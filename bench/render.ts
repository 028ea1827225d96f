/**
 * Template rendering on one core: a generated 30 KB HTML e-mail with 5 variables (plus its subject and the
 * plain-text part generated from it), compiled once and rendered per contact, against a baseline in the same run
 * that fills the same 5 placeholders in the same three parts with String.replaceAll. Goal: ≥ 20,000 messages/s.
 * Every rendered part is measured with Buffer.byteLength, which flattens and encodes it as building the MIME message
 * would. For the record it also times the same template with one {% if %}, which takes LiquidJS's general path.
 * Run: npx tsx bench/render.ts [contacts]   (after `npm run build -w packages/shared` if that package changed)
 */
import { compileTemplate, plainTextFromHtml, type RenderContext } from '../apps/server/src/templates/render.js';

const COUNT = Number(process.argv[2] ?? 200_000);
const CONTACTS = 10_000;
const TARGET_BYTES = 30 * 1024;
const GOAL = 20_000;

const VARIABLES = {
  name: '{{ contact.name }}',
  email: '{{ contact.email }}',
  city: '{{ contact.attributes.city }}',
  plan: '{{ contact.attributes.plan }}',
  company: '{{ vars.company }}',
};

/** A table-based newsletter like the console's builder makes: rows of styled copy, the variables spread through it. */
function generateHtml(): string {
  const head =
    '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body style="margin:0;background:#f4f4f4">' +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center"><h1 style="font-family:Arial,sans-serif">Hello ${VARIABLES.name}</h1></td></tr>`;
  const tail =
    `<tr><td style="font-family:Arial,sans-serif;font-size:12px;color:#888">Sent to ${VARIABLES.email} by ${VARIABLES.company}. ` +
    '<a href="https://example.com/unsubscribe">Unsubscribe</a></td></tr></table></body></html>';
  const middle = [
    `<tr><td><p>News for ${VARIABLES.city}.</p></td></tr>`,
    `<tr><td><p>Your plan: ${VARIABLES.plan}.</p></td></tr>`,
  ];
  let filler = '';
  for (let i = 0; (head + filler + middle.join('') + tail).length < TARGET_BYTES; i++) {
    filler +=
      `<tr><td style="padding:12px 24px;font-family:Arial,sans-serif;font-size:15px;line-height:22px;color:#333">` +
      `<p>Section ${i}: Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p></td></tr>`;
  }
  const half = filler.length >> 1;
  const cut = filler.indexOf('<tr>', half);
  return head + filler.slice(0, cut) + middle[0] + filler.slice(cut) + middle[1] + tail;
}

function generateContexts(): RenderContext[] {
  return Array.from({ length: CONTACTS }, (_, i) => ({
    contact: {
      id: i + 1,
      name: `Contact ${i}`,
      email: `contact${i}@example.com`,
      attributes: { city: `City ${i % 500}`, plan: i % 3 === 0 ? 'Pro' : 'Basic' },
    },
    vars: { company: 'Acme Ltd' },
  }));
}

interface Parts {
  subject: string;
  html: string;
  text: string;
}

/** The baseline: the same placeholders filled by plain string replacement, no template engine. */
function replaceAll(template: Parts, context: RenderContext): Parts {
  const attributes = context.contact.attributes as { city: string; plan: string };
  const fill = (part: string) =>
    part
      .replaceAll(VARIABLES.name, context.contact.name ?? '')
      .replaceAll(VARIABLES.email, context.contact.email ?? '')
      .replaceAll(VARIABLES.city, attributes.city)
      .replaceAll(VARIABLES.plan, attributes.plan)
      .replaceAll(VARIABLES.company, context.vars.company ?? '');
  return { subject: fill(template.subject), html: fill(template.html), text: fill(template.text) };
}

function measure(render: (context: RenderContext) => Parts, contexts: RenderContext[]): { rate: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < 2_000; i++) render(contexts[i % contexts.length]!);
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) {
    const out = render(contexts[i % contexts.length]!);
    bytes += Buffer.byteLength(out.subject) + Buffer.byteLength(out.html) + Buffer.byteLength(out.text);
  }
  return { rate: COUNT / ((performance.now() - started) / 1000), bytes };
}

const html = generateHtml();
const parts: Parts = { subject: `${VARIABLES.name}, news from ${VARIABLES.company}`, html, text: plainTextFromHtml(html) };
const contexts = generateContexts();
const compiled = compileTemplate({ channel: 'EMAIL', smsText: '', ...parts });

const sample = contexts[7]!;
const viaLiquid = compiled(sample);
const viaReplace = replaceAll(parts, sample);
if (viaLiquid.html !== viaReplace.html || viaLiquid.text !== viaReplace.text || viaLiquid.subject !== viaReplace.subject) {
  throw new Error('the two renderers disagree on the sample contact');
}

console.log(
  `template: ${html.length} bytes of HTML, ${parts.text.length} bytes of generated text, 5 variables; ${COUNT} renders`,
);
const baseline = measure((context) => replaceAll(parts, context), contexts);
console.log(`baseline String.replaceAll:  ${Math.round(baseline.rate).toLocaleString('en')} messages/s`);
const liquid = measure(compiled, contexts);
console.log(`compiled LiquidJS template: ${Math.round(liquid.rate).toLocaleString('en')} messages/s`);
if (liquid.bytes !== baseline.bytes) throw new Error('the two renderers produced different amounts of output');

const withTag = compileTemplate({
  channel: 'EMAIL',
  smsText: '',
  ...parts,
  html: html.replace('</body>', '{% if contact.attributes.plan == "Pro" %}<p>Thanks for going Pro.</p>{% endif %}</body>'),
});
console.log(
  `the same with one {% if %} (general LiquidJS path): ${Math.round(measure(withTag, contexts).rate).toLocaleString('en')} messages/s`,
);

const ratio = liquid.rate / baseline.rate;
console.log(
  `render: ${Math.round(liquid.rate).toLocaleString('en')} messages/s (30 KB HTML + subject + text, 5 variables, one core), ` +
    `${ratio.toFixed(2)}x the string-replace baseline, goal ${GOAL.toLocaleString('en')}/s ${liquid.rate >= GOAL ? 'met' : 'NOT met'}`,
);
