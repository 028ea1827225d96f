/** Live SMS arithmetic under the text box: encoding, characters, parts and the room left in the last part. */
import { smsSegments } from '@herald/shared';
import { Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

export function SmsCounter({ text }: { text: string }) {
  const { t } = useTranslation('templates');
  const { token } = theme.useToken();
  const segments = smsSegments(text);
  const capacity = Math.max(1, segments.parts) * segments.perPart;
  const left = capacity - segments.characters;
  const hasLiquid = /\{\{|\{%/.test(text);
  return (
    <Flex
      vertical
      gap={4}
      data-testid="sms-counter"
      data-encoding={segments.encoding}
      data-characters={segments.characters}
      data-parts={segments.parts}
      style={{
        marginTop: 8,
        padding: '8px 12px',
        borderRadius: token.borderRadius,
        background: token.colorFillQuaternary,
        fontSize: 13,
      }}
    >
      <Flex gap={12} wrap align="center">
        <Tooltip title={t(`sms.encodingHelp.${segments.encoding === 'GSM-7' ? 'gsm' : 'ucs'}`)}>
          <Tag color={segments.encoding === 'GSM-7' ? 'green' : 'orange'} style={{ marginInlineEnd: 0 }}>
            {segments.encoding}
          </Tag>
        </Tooltip>
        <span data-testid="sms-characters">{t('sms.characters', { count: segments.characters })}</span>
        <Typography.Text strong data-testid="sms-parts">
          {t('sms.parts', { count: segments.parts })}
        </Typography.Text>
        <span>{t('sms.perPart', { n: segments.perPart })}</span>
        {segments.parts > 0 && <Typography.Text type="secondary">{t('sms.left', { count: left })}</Typography.Text>}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {hasLiquid ? t('sms.liquidNote') : t('sms.extensionNote')}
      </Typography.Text>
    </Flex>
  );
}
