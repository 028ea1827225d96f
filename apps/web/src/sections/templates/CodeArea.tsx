/**
 * A plain textarea with a line-number gutter that marks the lines with problems, so "line 12, column 5" can be
 * found without a code-editor library. Lines never wrap, so gutter numbers and text lines stay aligned.
 */
import { theme } from 'antd';
import { type ClipboardEvent, type Ref, useMemo, useRef, useState } from 'react';
import { offsetOf } from './textInsert';

const LINE_HEIGHT = 20;
const PADDING = 8;

interface CodeAreaProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  onPaste?: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
  rows?: number;
  placeholder?: string;
  /** 1-based lines to mark in the gutter. */
  errorLines?: readonly number[];
  textareaRef?: Ref<HTMLTextAreaElement>;
  testId?: string;
  'aria-label'?: string;
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Selects the character at a line and column and scrolls it into view. */
export function revealPosition(
  element: HTMLTextAreaElement | HTMLInputElement | null | undefined,
  line: number,
  column: number,
): void {
  if (!element) return;
  const offset = offsetOf(element.value, line, column);
  element.focus();
  element.setSelectionRange(offset, Math.min(element.value.length, offset + 1));
  element.scrollTop = Math.max(0, (line - 3) * LINE_HEIGHT);
}

export function CodeArea({
  id,
  value = '',
  onChange,
  onPaste,
  rows = 14,
  placeholder,
  errorLines = [],
  textareaRef,
  testId,
  'aria-label': ariaLabel,
}: CodeAreaProps) {
  const { token } = theme.useToken();
  const gutter = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState(false);
  const lines = lineCount(value);
  const numbers = useMemo(() => Array.from({ length: lines }, (_, index) => index + 1).join('\n'), [lines]);
  const hasError = errorLines.length > 0;
  const borderColor = hasError ? token.colorError : focused ? token.colorPrimary : token.colorBorder;
  const font = `13px/${LINE_HEIGHT}px ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace`;

  return (
    <div
      style={{
        display: 'flex',
        border: `1px solid ${borderColor}`,
        borderRadius: token.borderRadius,
        background: token.colorBgContainer,
        boxShadow: focused ? `0 0 0 2px ${hasError ? token.colorErrorBg : token.controlOutline}` : undefined,
        transition: 'border-color 0.2s, box-shadow 0.2s',
        overflow: 'hidden',
      }}
    >
      <div
        ref={gutter}
        aria-hidden
        style={{
          position: 'relative',
          flex: '0 0 auto',
          minWidth: 44,
          overflow: 'hidden',
          background: token.colorFillQuaternary,
          borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
          color: token.colorTextQuaternary,
          userSelect: 'none',
        }}
      >
        {/* The extra bottom room lets the gutter follow the textarea to its end past a horizontal scrollbar. */}
        <pre style={{ margin: 0, padding: `${PADDING}px 8px ${PADDING + 24}px 10px`, font, textAlign: 'right' }}>{numbers}</pre>
        {errorLines.map((line) => (
          <div
            key={line}
            style={{
              position: 'absolute',
              insetInline: 0,
              top: PADDING + (line - 1) * LINE_HEIGHT,
              height: LINE_HEIGHT,
              background: token.colorErrorBg,
              borderInlineStart: `3px solid ${token.colorError}`,
              color: token.colorError,
              font,
              fontWeight: 600,
              textAlign: 'right',
              paddingInlineEnd: 8,
            }}
          >
            {line}
          </div>
        ))}
      </div>
      <textarea
        id={id}
        ref={textareaRef}
        data-testid={testId}
        aria-label={ariaLabel}
        aria-invalid={hasError || undefined}
        value={value}
        rows={rows}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        placeholder={placeholder}
        onChange={(event) => onChange?.(event.target.value)}
        onPaste={onPaste}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onScroll={(event) => {
          if (gutter.current) gutter.current.scrollTop = event.currentTarget.scrollTop;
        }}
        style={{
          flex: 1,
          minWidth: 0,
          minHeight: rows * LINE_HEIGHT + 2 * PADDING,
          padding: PADDING,
          border: 0,
          outline: 'none',
          resize: 'vertical',
          font,
          tabSize: 2,
          color: token.colorText,
          background: 'transparent',
          whiteSpace: 'pre',
          overflow: 'auto',
        }}
      />
    </div>
  );
}
