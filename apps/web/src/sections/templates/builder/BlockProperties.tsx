/** The side panel's editor of one block's properties. */
import { Col, Divider, Form, Input, InputNumber, Row, Segmented, Typography } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlignInput, ColorInput, Field, RangeInput, RichTextInput, UrlInput } from './fields';
import { type Align, type Block, type Column, type ColumnsBlock, LIMITS } from './model';

/** Applies a change to the block; `field` names what changed, so typing in it undoes as one step. */
export type BlockChange = (patch: Partial<Block>, field: string) => void;

const COLUMN_SIDES = [0, 1] as const;

function AlignField({ value, onChange }: { value: Align; onChange: BlockChange }) {
  const { t } = useTranslation('templates');
  return (
    <Field label={t('builder.props.align')}>
      <AlignInput value={value} onChange={(align) => onChange({ align }, 'align')} />
    </Field>
  );
}

/** Two fields side by side, each half the panel wide. */
function FieldPair({ children }: { children: [ReactNode, ReactNode] }) {
  return (
    <Row gutter={12}>
      <Col span={12}>{children[0]}</Col>
      <Col span={12}>{children[1]}</Col>
    </Row>
  );
}

function ColumnEditor({
  column,
  index,
  onChange,
}: {
  column: Column;
  index: 0 | 1;
  onChange: (column: Column, field: string) => void;
}) {
  const { t } = useTranslation('templates');
  const set = <K extends keyof Column>(key: K, value: Column[K]) => onChange({ ...column, [key]: value }, `${index}.${key}`);
  return (
    <>
      <Field label={t('builder.props.imageUrl')}>
        <UrlInput
          optional
          value={column.image}
          onChange={(value) => set('image', value)}
          placeholder="https://example.com/photo.png"
          testId={`builder-prop-column-${index}-image`}
        />
      </Field>
      {column.image && (
        <Field label={t('builder.props.alt')}>
          <Input value={column.alt} onChange={(event) => set('alt', event.target.value)} />
        </Field>
      )}
      <Field label={t('builder.props.heading')}>
        <Input
          data-testid={`builder-prop-column-${index}-heading`}
          value={column.heading}
          onChange={(event) => set('heading', event.target.value)}
        />
      </Field>
      <Field label={t('builder.props.text')}>
        <RichTextInput
          value={column.text}
          onChange={(value) => set('text', value)}
          minRows={3}
          testId={`builder-prop-column-${index}-text`}
        />
      </Field>
    </>
  );
}

export function BlockProperties({ block, brandColor, onChange }: { block: Block; brandColor: string; onChange: BlockChange }) {
  const { t } = useTranslation('templates');
  const body = (() => {
    switch (block.type) {
      case 'heading':
        return (
          <>
            <Field label={t('builder.props.text')}>
              <Input.TextArea
                data-testid="builder-prop-text"
                value={block.text}
                autoSize={{ minRows: 1, maxRows: 4 }}
                onChange={(event) => onChange({ text: event.target.value }, 'text')}
              />
            </Field>
            <FieldPair>
              <Field label={t('builder.props.level')}>
                <Segmented<1 | 2 | 3>
                  size="small"
                  value={block.level}
                  onChange={(level) => onChange({ level }, 'level')}
                  options={[
                    { value: 1, label: 'H1' },
                    { value: 2, label: 'H2' },
                    { value: 3, label: 'H3' },
                  ]}
                />
              </Field>
              <AlignField value={block.align} onChange={onChange} />
            </FieldPair>
          </>
        );
      case 'text':
        return (
          <>
            <Field label={t('builder.props.text')}>
              <RichTextInput value={block.text} onChange={(text) => onChange({ text }, 'text')} testId="builder-prop-text" />
            </Field>
            <AlignField value={block.align} onChange={onChange} />
          </>
        );
      case 'image':
        return (
          <>
            <Field label={t('builder.props.imageUrl')}>
              <UrlInput
                value={block.src}
                onChange={(src) => onChange({ src }, 'src')}
                placeholder="https://example.com/banner.png"
                testId="builder-prop-src"
              />
            </Field>
            <Field label={t('builder.props.alt')} help={t('builder.props.altHelp')}>
              <Input
                data-testid="builder-prop-alt"
                value={block.alt}
                onChange={(event) => onChange({ alt: event.target.value }, 'alt')}
              />
            </Field>
            <Field label={t('builder.props.imageLink')}>
              <UrlInput optional value={block.href} onChange={(href) => onChange({ href }, 'href')} placeholder="https://" />
            </Field>
            <Field label={t('builder.props.width')}>
              <RangeInput
                min={LIMITS.imageWidth.min}
                max={LIMITS.imageWidth.max}
                suffix="%"
                value={block.width}
                onChange={(width) => onChange({ width }, 'width')}
              />
            </Field>
            <AlignField value={block.align} onChange={onChange} />
          </>
        );
      case 'button':
        return (
          <>
            <Field label={t('builder.props.label')}>
              <Input
                data-testid="builder-prop-label"
                value={block.label}
                onChange={(event) => onChange({ label: event.target.value }, 'label')}
              />
            </Field>
            <Field label={t('builder.props.url')}>
              <UrlInput
                value={block.href}
                onChange={(href) => onChange({ href }, 'href')}
                placeholder="https://example.com"
                testId="builder-prop-href"
              />
            </Field>
            <FieldPair>
              <Field label={t('builder.props.color')} help={block.color ? undefined : t('builder.props.brandColor')}>
                <ColorInput value={block.color} fallback={brandColor} onChange={(color) => onChange({ color }, 'color')} />
              </Field>
              <AlignField value={block.align} onChange={onChange} />
            </FieldPair>
          </>
        );
      case 'divider':
        return (
          <FieldPair>
            <Field label={t('builder.props.color')}>
              <ColorInput value={block.color} onChange={(color) => onChange({ color }, 'color')} />
            </Field>
            <Field label={t('builder.props.thickness')}>
              <InputNumber
                min={LIMITS.thickness.min}
                max={LIMITS.thickness.max}
                suffix="px"
                value={block.thickness}
                onChange={(thickness) => thickness !== null && onChange({ thickness }, 'thickness')}
                style={{ width: '100%' }}
              />
            </Field>
          </FieldPair>
        );
      case 'spacer':
        return (
          <Field label={t('builder.props.height')}>
            <RangeInput
              min={LIMITS.spacer.min}
              max={LIMITS.spacer.max}
              suffix="px"
              value={block.height}
              onChange={(height) => onChange({ height }, 'height')}
            />
          </Field>
        );
      case 'columns': {
        const change = (index: 0 | 1) => (column: Column, field: string) => {
          const columns: ColumnsBlock['columns'] = index === 0 ? [column, block.columns[1]] : [block.columns[0], column];
          onChange({ columns }, field);
        };
        return (
          <>
            {COLUMN_SIDES.map((index) => (
              <Fragment key={index}>
                <Divider titlePlacement="start" style={{ margin: index === 0 ? '0 0 8px' : '4px 0 8px' }}>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(index === 0 ? 'builder.props.leftColumn' : 'builder.props.rightColumn')}
                  </Typography.Text>
                </Divider>
                <ColumnEditor column={block.columns[index]} index={index} onChange={change(index)} />
              </Fragment>
            ))}
          </>
        );
      }
    }
  })();
  return (
    <Form layout="vertical" component="div" size="small" data-testid="builder-properties" style={{ paddingTop: 4 }}>
      {body}
    </Form>
  );
}
