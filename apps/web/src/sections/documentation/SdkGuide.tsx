/** The SDK part: install, then one short example per task (the same ones as packages/sdk/README.md). */
import { CodeOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CodeBlock } from './CodeBlock';

const STEPS = ['install', 'client', 'template', 'inline', 'batch', 'status', 'errors', 'webhooks'] as const;
type Step = (typeof STEPS)[number];

function examples(origin: string): Record<Step, string> {
  return {
    install: `# In a Herald checkout: build the SDK and pack it into a tarball
npm run build -w packages/sdk && npm pack -w packages/sdk

# In your project
npm install /path/to/herald-sdk-0.1.0.tgz`,
    client: `import { HeraldClient } from '@herald/sdk';

const herald = new HeraldClient({
  baseUrl: '${origin}',
  apiKey: process.env.HERALD_API_KEY, // hk_…, from the Integration screen
});`,
    template: `// Renders the stored template "welcome" with these variables
const message = await herald.messages.send({
  channel: 'email',
  to: 'anna@example.com',
  template: 'welcome',
  variables: { firstName: 'Anna', plan: 'Pro' },
  locale: 'en',
});
console.log(message.id, message.status); // 42 'unsent': stored, on its way`,
    inline: `await herald.messages.send({
  channel: 'email',
  to: 'anna@example.com',
  content: { subject: 'Your code', html: '<p>Your code is <b>4711</b></p>', text: 'Your code is 4711' },
});

await herald.messages.send({
  channel: 'sms',
  to: '+12025550123',
  content: { text: 'Your code is 4711' },
  sendAt: '2026-12-01T09:00:00Z', // later, instead of now
});`,
    batch: `// 1 to 1000 messages, all or nothing; answers in request order
const { messages } = await herald.messages.sendBatch([
  { channel: 'email', to: 'anna@example.com', template: 'welcome', variables: { firstName: 'Anna' } },
  { channel: 'sms', to: '+12025550123', content: { text: 'Welcome aboard!' } },
]);
console.log(messages.map((message) => message.id));`,
    status: `const message = await herald.messages.get(42);
console.log(message.status); // e.g. 'delivered'
for (const step of message.history) {
  console.log(step.at, step.status, step.detail ?? '');
}`,
    errors: `import { HeraldError } from '@herald/sdk';

try {
  // One Idempotency-Key is made per send and reused on every retry, so a retry never sends twice.
  // Pass your own to make repeats of your own code safe too:
  await herald.messages.send(
    { channel: 'email', to: 'anna@example.com', template: 'receipt' },
    { idempotencyKey: 'order-1001-receipt' },
  );
} catch (error) {
  if (error instanceof HeraldError) {
    // e.g. 422 with fields [{ field: 'template', key: 'messages.unknownTemplate', message: … }]
    console.error(error.status, error.key, error.message, error.fields);
  }
}

// Network errors, 429 (after Retry-After) and 5xx are retried with backoff:
const patient = new HeraldClient({
  baseUrl: '${origin}',
  apiKey: process.env.HERALD_API_KEY,
  retry: { retries: 5, baseDelayMs: 500, maxDelayMs: 30_000 },
  timeoutMs: 10_000,
});`,
    webhooks: `import { createServer } from 'node:http';
import { verifyWebhook } from '@herald/sdk';

createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const rawBody = Buffer.concat(chunks); // verify the exact bytes, before JSON.parse

  const valid = await verifyWebhook(
    process.env.HERALD_WEBHOOK_SECRET,
    rawBody,
    request.headers['x-herald-signature'],
    300, // seconds of clock difference accepted; older calls are refused as replays
  );
  if (!valid) return response.writeHead(400).end();

  const event = JSON.parse(rawBody.toString('utf8'));
  console.log(event.messageId, event.previousStatus, '→', event.status);
  response.writeHead(204).end();
}).listen(8080);`,
  };
}

export function SdkGuide() {
  const { t } = useTranslation('documentation');
  const code = examples(window.location.origin);
  return (
    <Card variant="borderless" data-testid="documentation-sdk">
      <Flex vertical gap={20}>
        <Flex align="center" gap={12}>
          <CodeOutlined style={{ fontSize: 28 }} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('sdk.title')}
          </Typography.Title>
        </Flex>
        <Typography.Paragraph style={{ margin: 0, maxWidth: 820 }}>{t('sdk.description')}</Typography.Paragraph>
        <Flex wrap gap={4} data-testid="sdk-contents" style={{ marginInline: -8 }}>
          {STEPS.map((step) => (
            <Button
              key={step}
              type="link"
              size="small"
              // Scrolls inside the console's own scroll area without changing the route's URL.
              onClick={() =>
                globalThis.document.getElementById(`sdk-${step}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' })
              }
            >
              {t(`sdk.steps.${step}.title`)}
            </Button>
          ))}
        </Flex>
        {STEPS.map((step) => (
          <section key={step} id={`sdk-${step}`} data-testid={`sdk-${step}`} style={{ scrollMarginTop: 120 }}>
            <Typography.Title level={4}>{t(`sdk.steps.${step}.title`)}</Typography.Title>
            <Typography.Paragraph style={{ maxWidth: 820 }}>{t(`sdk.steps.${step}.text`)}</Typography.Paragraph>
            <CodeBlock code={code[step]} />
          </section>
        ))}
      </Flex>
    </Card>
  );
}
