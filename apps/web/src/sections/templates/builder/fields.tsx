/** Small controls shared by the block and design panels: alignment, colour, range, URL with a safety hint, rich text. */
import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
} from '@ant-design/icons';
import { Button, Col, ColorPicker, Flex, Form, Input, InputNumber, Row, Segmented, Slider, Tooltip, Typography } from 'antd';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { insertSnippet, type Snippet, wrapSelection } from '../textInsert';
import { VariableMenu } from '../VariableMenu';
import { safeUrl } from './generate';
import type { Align } from './model';

export function Field({ label, children, help }: { label: string; children: ReactNode; help?: ReactNode }) {
  return (
    <Form.Item label={label} help={help} style={{ marginBottom: 12 }}>
      {children}
    </Form.Item>
  );
}

/** A number within limits: a slider to drag and a box to type the exact value. */
export function RangeInput({
  value,
  onChange,
  min,
  max,
  suffix,
  step,
  testId,
}: {
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  suffix: string;
  step?: number;
  testId?: string;
}) {
  return (
    <Row gutter={12} align="middle">
      <Col flex="auto">
        <Slider min={min} max={max} step={step} value={value} onChange={onChange} />
      </Col>
      <Col>
        <InputNumber
          size="small"
          min={min}
          max={max}
          suffix={suffix}
          value={value}
          data-testid={testId}
          onChange={(next) => next !== null && onChange(next)}
          style={{ width: 92 }}
        />
      </Col>
    </Row>
  );
}

export function AlignInput({ value, onChange }: { value: Align; onChange: (value: Align) => void }) {
  const { t } = useTranslation('templates');
  return (
    <Segmented<Align>
      size="small"
      value={value}
      onChange={onChange}
      options={[
        { value: 'left', icon: <AlignLeftOutlined />, title: t('builder.props.alignLeft') },
        { value: 'center', icon: <AlignCenterOutlined />, title: t('builder.props.alignCenter') },
        { value: 'right', icon: <AlignRightOutlined />, title: t('builder.props.alignRight') },
      ]}
    />
  );
}

/** A hex colour; `allowClear` lets it fall back to `fallback` (the brand colour) by answering ''. */
export function ColorInput({
  value,
  onChange,
  fallback,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  fallback?: string;
  testId?: string;
}) {
  return (
    <ColorPicker
      data-testid={testId}
      value={value || fallback}
      disabledAlpha
      showText
      format="hex"
      allowClear={fallback !== undefined}
      onClear={() => onChange('')}
      onChange={(color) => onChange(color.toHexString())}
    />
  );
}

export function UrlInput({
  value,
  onChange,
  placeholder,
  testId,
  optional,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId?: string;
  optional?: boolean;
}) {
  const { t } = useTranslation('templates');
  const unsafe = value.trim() !== '' && value.trim() !== 'https://' && safeUrl(value) === null;
  const missing = !optional && (value.trim() === '' || value.trim() === 'https://');
  return (
    <Flex vertical gap={4}>
      <Input
        data-testid={testId}
        value={value}
        placeholder={placeholder}
        status={unsafe ? 'warning' : undefined}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
      />
      {(unsafe || missing) && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {unsafe ? t('builder.props.unsafeUrl') : t('builder.props.missingUrl')}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Text with a toolbar for **bold**, *italic*, [links](…) and variables, written into the markdown-ish source. */
export function RichTextInput({
  value,
  onChange,
  testId,
  minRows = 4,
}: {
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  minRows?: number;
}) {
  const { t } = useTranslation('templates');
  const area = useRef<HTMLTextAreaElement | null>(null);
  const insert = (snippet: Snippet) => insertSnippet(area.current, value, snippet, onChange);
  const link = () => {
    const element = area.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? start;
    const label = value.slice(start, end) || t('builder.props.linkLabel');
    const text = `[${label}](https://)`;
    insert({ text, select: [label.length + 3, text.length - 1] });
  };
  return (
    <Flex vertical gap={6}>
      <Flex gap={4} align="center" wrap>
        <Tooltip title={t('builder.props.bold')}>
          <Button
            size="small"
            icon={<BoldOutlined />}
            aria-label={t('builder.props.bold')}
            onClick={() => wrapSelection(area.current, value, '**', '**', t('builder.props.boldWord'), onChange)}
          />
        </Tooltip>
        <Tooltip title={t('builder.props.italic')}>
          <Button
            size="small"
            icon={<ItalicOutlined />}
            aria-label={t('builder.props.italic')}
            onClick={() => wrapSelection(area.current, value, '*', '*', t('builder.props.italicWord'), onChange)}
          />
        </Tooltip>
        <Tooltip title={t('builder.props.link')}>
          <Button size="small" icon={<LinkOutlined />} aria-label={t('builder.props.link')} onClick={link} />
        </Tooltip>
        <VariableMenu onInsert={insert} />
      </Flex>
      <Input.TextArea
        data-testid={testId}
        value={value}
        autoSize={{ minRows, maxRows: 14 }}
        onChange={(event) => onChange(event.target.value)}
        ref={(instance) => {
          area.current = instance?.resizableTextArea?.textArea ?? null;
        }}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('builder.props.markdownHelp')}
      </Typography.Text>
    </Flex>
  );
}
