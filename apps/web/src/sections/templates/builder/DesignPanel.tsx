/** Settings of the whole e-mail: colours, width, font and the preheader line. */
import { Col, Form, Input, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ColorInput, Field, RangeInput } from './fields';
import { type BuilderSettings, FONTS, type FontId, LIMITS } from './model';

const FONT_NAMES: Record<FontId, string> = {
  system: 'System UI',
  arial: 'Arial',
  helvetica: 'Helvetica',
  verdana: 'Verdana',
  trebuchet: 'Trebuchet MS',
  georgia: 'Georgia',
  courier: 'Courier New',
};

export function DesignPanel({
  settings,
  onChange,
}: {
  settings: BuilderSettings;
  onChange: (patch: Partial<BuilderSettings>, field: string) => void;
}) {
  const { t } = useTranslation('templates');
  return (
    <Form layout="vertical" component="div" size="small" data-testid="builder-design">
      <Row gutter={12}>
        <Col span={12}>
          <Field label={t('builder.design.background')}>
            <ColorInput
              testId="builder-design-background"
              value={settings.background}
              onChange={(background) => onChange({ background }, 'background')}
            />
          </Field>
        </Col>
        <Col span={12}>
          <Field label={t('builder.design.contentBackground')}>
            <ColorInput
              value={settings.contentBackground}
              onChange={(contentBackground) => onChange({ contentBackground }, 'contentBackground')}
            />
          </Field>
        </Col>
        <Col span={12}>
          <Field label={t('builder.design.brandColor')} help={t('builder.design.brandHelp')}>
            <ColorInput
              testId="builder-design-brand"
              value={settings.brandColor}
              onChange={(brandColor) => onChange({ brandColor }, 'brandColor')}
            />
          </Field>
        </Col>
        <Col span={12}>
          <Field label={t('builder.design.textColor')}>
            <ColorInput value={settings.textColor} onChange={(textColor) => onChange({ textColor }, 'textColor')} />
          </Field>
        </Col>
      </Row>
      <Field label={t('builder.design.width')} help={t('builder.design.widthHelp')}>
        <RangeInput
          min={LIMITS.width.min}
          max={LIMITS.width.max}
          step={10}
          suffix="px"
          value={settings.width}
          testId="builder-design-width"
          onChange={(width) => onChange({ width }, 'width')}
        />
      </Field>
      <Field label={t('builder.design.font')}>
        <Select<FontId>
          data-testid="builder-design-font"
          value={settings.font}
          onChange={(font) => onChange({ font }, 'font')}
          options={(Object.keys(FONTS) as FontId[]).map((font) => ({
            value: font,
            label: <span style={{ fontFamily: FONTS[font] }}>{FONT_NAMES[font]}</span>,
          }))}
        />
      </Field>
      <Field label={t('builder.design.preheader')}>
        <Input
          data-testid="builder-design-preheader"
          value={settings.preheader}
          maxLength={200}
          placeholder={t('builder.design.preheaderPlaceholder')}
          onChange={(event) => onChange({ preheader: event.target.value }, 'preheader')}
        />
      </Field>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('builder.design.preheaderHelp')}
      </Typography.Text>
    </Form>
  );
}
