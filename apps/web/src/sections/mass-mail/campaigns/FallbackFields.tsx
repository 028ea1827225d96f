/**
 * The configurations step's fallback: a message the campaign's channel cannot deliver (every configuration refused
 * it, none serves the recipient, or retries ran out) goes to the contact's address on the other channel, with a
 * template of that channel, through one configuration or a provider group of it.
 */
import type { ChannelCategory } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Form, Radio, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { templatesQuery } from './api';
import { activeMembers, useRouteLookups } from './WizardFields';

export const otherChannel = (channel: ChannelCategory): ChannelCategory => (channel === 'EMAIL' ? 'SMS' : 'EMAIL');

export function FallbackFields({ channel }: { channel: ChannelCategory }) {
  const { t } = useTranslation('campaigns');
  const other = otherChannel(channel);
  const templates = useQuery(templatesQuery(other));
  const { configs, groups, loading } = useRouteLookups(other);
  const required = { required: true, message: t('errors:validation.mandatory') };
  const ownName = t(`channels.${channel}`);
  const otherName = t(`channels.${other}`);
  return (
    <Card size="small" style={{ marginTop: 8 }} data-testid="wizard-fallback">
      <Form.Item
        name="fallbackEnabled"
        valuePropName="checked"
        label={t('wizard.fallback.label', { other: otherName })}
        extra={t('wizard.fallback.help', { own: ownName, other: otherName })}
        style={{ marginBottom: 8 }}
      >
        <Switch data-testid="wizard-fallback-switch" />
      </Form.Item>
      <Form.Item noStyle dependencies={['fallbackEnabled', 'fallbackRoute']}>
        {({ getFieldValue }) =>
          getFieldValue('fallbackEnabled') ? (
            <>
              <Form.Item name="fallbackTemplate" label={t('wizard.fallback.template', { other: otherName })} rules={[required]}>
                <Select<string>
                  data-testid="wizard-fallback-template"
                  showSearch
                  loading={templates.isPending}
                  placeholder={t('wizard.template.placeholder')}
                  notFoundContent={<Typography.Text type="secondary">{t('wizard.fallback.noTemplates')}</Typography.Text>}
                  options={(templates.data?.items ?? []).map((template) => ({ value: template.name, label: template.name }))}
                />
              </Form.Item>
              <Form.Item name="fallbackRoute" label={t('wizard.route.label')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'config', label: t('wizard.route.config') },
                    { value: 'group', label: t('wizard.route.group') },
                  ]}
                />
              </Form.Item>
              {getFieldValue('fallbackRoute') === 'group' ? (
                <Form.Item name="fallbackGroupId" label={t('wizard.route.groupLabel')} rules={[required]}>
                  <Select<number>
                    data-testid="wizard-fallback-group"
                    placeholder={t('wizard.route.groupPlaceholder')}
                    notFoundContent={<Typography.Text type="secondary">{t('wizard.route.noGroups')}</Typography.Text>}
                    options={groups.map((group) => ({
                      value: group.id,
                      label: `${group.name} · ${t('wizard.route.groupMembers', { active: activeMembers(group), total: group.configs.length })}`,
                    }))}
                  />
                </Form.Item>
              ) : (
                <Form.Item name="fallbackConfigId" label={t('wizard.route.configLabel')} rules={[required]}>
                  <Select<number>
                    data-testid="wizard-fallback-config"
                    loading={loading}
                    placeholder={t('wizard.route.configPlaceholder')}
                    options={configs.map((config) => ({
                      value: config.id,
                      label: config.active ? config.name : `${config.name} (${t('wizard.route.inactive')})`,
                    }))}
                  />
                </Form.Item>
              )}
            </>
          ) : null
        }
      </Form.Item>
    </Card>
  );
}
