/** Preformatted code with a copy button; no highlighter, so the documentation stays light. */
import { Typography, theme } from 'antd';

export function CodeBlock({ code, testId, maxHeight }: { code: string; testId?: string; maxHeight?: number }) {
  const { token } = theme.useToken();
  return (
    <div style={{ position: 'relative' }}>
      <pre
        data-testid={testId}
        style={{
          margin: 0,
          padding: '12px 44px 12px 14px',
          background: token.colorFillQuaternary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          fontFamily: token.fontFamilyCode,
          fontSize: 12.5,
          lineHeight: 1.55,
          overflow: 'auto',
          maxHeight,
          whiteSpace: 'pre',
        }}
      >
        <code>{code}</code>
      </pre>
      <Typography.Text copyable={{ text: code }} style={{ position: 'absolute', top: 8, right: 10 }} />
    </div>
  );
}
