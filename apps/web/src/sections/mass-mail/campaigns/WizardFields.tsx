/** The wizard's first five steps: channel, name, contact list, template and the configurations to send through. */
import { CheckCircleFilled, MailOutlined, MessageOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, Flex, Form, Input, Radio, Select, Skeleton, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { configsQuery, groupsQuery, type ProviderConfig, type ProviderGroup } from '../../configs/api';
import { type ContactList, contactListsQuery, LOOKUP_SIZE, previewQuery, templatesQuery } from './api';

const NAME_MAX = 200;

function channelCount(list: ContactList, channel: ChannelCategory): number {
  return channel === 'EMAIL' ? list.counts.withEmail : list.counts.withPhone;
}

function channelConfigs(configs: readonly ProviderConfig[] | undefined, channel: ChannelCategory): ProviderConfig[] {
  return (configs ?? []).filter((config) => config.category === channel);
}

export function activeMembers(group: ProviderGroup): number {
  return group.configs.filter((member) => member.active).length;
}

export function useRouteLookups(channel: ChannelCategory) {
  const configs = useQuery(configsQuery);
  const groups = useQuery(groupsQuery(channel, 1, LOOKUP_SIZE));
  return { configs: channelConfigs(configs.data, channel), groups: groups.data?.items ?? [], loading: configs.isPending };
}

function ChoiceCard({
  selected,
  icon,
  title,
  description,
  testId,
  onSelect,
}: {
  selected: boolean;
  icon: ReactNode;
  title: string;
  description: string;
  testId: string;
  onSelect: () => void;
}) {
  const { token } = theme.useToken();
  return (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={selected}
      onClick={onSelect}
      style={{
        flex: '1 1 240px',
        position: 'relative',
        textAlign: 'start',
        cursor: 'pointer',
        padding: token.paddingLG,
        borderRadius: token.borderRadiusLG,
        border: `${selected ? 2 : 1}px solid ${selected ? token.colorPrimary : token.colorBorder}`,
        margin: selected ? 0 : 1,
        background: selected ? token.colorPrimaryBg : token.colorBgContainer,
        color: token.colorText,
        font: 'inherit',
        transition: 'border-color 0.2s, background 0.2s',
      }}
    >
      {selected && (
        <CheckCircleFilled
          style={{ position: 'absolute', top: 12, insetInlineEnd: 12, color: token.colorPrimary, fontSize: 18 }}
        />
      )}
      <span style={{ fontSize: 32, color: token.colorPrimary }}>{icon}</span>
      <Typography.Title level={5} style={{ margin: '8px 0 4px' }}>
        {title}
      </Typography.Title>
      <Typography.Text type="secondary">{description}</Typography.Text>
    </button>
  );
}

function ChannelPicker({ value, onChange }: { value?: ChannelCategory; onChange?: (value: ChannelCategory) => void }) {
  const { t } = useTranslation('campaigns');
  return (
    <Flex gap={16} wrap role="radiogroup">
      {(['EMAIL', 'SMS'] as const).map((channel) => (
        <ChoiceCard
          key={channel}
          selected={value === channel}
          icon={channel === 'EMAIL' ? <MailOutlined /> : <MessageOutlined />}
          title={t(`channels.${channel}`)}
          description={t(`wizard.type.${channel}`)}
          testId={channel === 'EMAIL' ? 'wizard-type-email' : 'wizard-type-sms'}
          onSelect={() => onChange?.(channel)}
        />
      ))}
    </Flex>
  );
}

export function TypeStep() {
  const { t } = useTranslation('campaigns');
  return (
    <Form.Item name="channel" label={t('wizard.type.label')}>
      <ChannelPicker />
    </Form.Item>
  );
}

export function NameStep() {
  const { t } = useTranslation('campaigns');
  return (
    <Form.Item
      name="name"
      label={t('wizard.name.label')}
      extra={t('wizard.name.help')}
      rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
    >
      <Input data-testid="wizard-name" maxLength={NAME_MAX} showCount placeholder={t('wizard.name.placeholder')} size="large" />
    </Form.Item>
  );
}

export function ListStep({ channel }: { channel: ChannelCategory }) {
  const { t, i18n } = useTranslation('campaigns');
  const lists = useQuery(contactListsQuery);
  const number = new Intl.NumberFormat(i18n.language);
  const items = lists.data?.items ?? [];
  const byId = new Map(items.map((list) => [list.id, list]));
  return (
    <>
      {lists.isSuccess && items.length === 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('wizard.list.none')}
          description={<Link to="/mass-mail/contacts">{t('wizard.list.toContacts')}</Link>}
        />
      )}
      <Form.Item
        name="listId"
        label={t('wizard.list.label')}
        rules={[
          { required: true, message: t('errors:validation.mandatory') },
          {
            validator: async (_, id: number | undefined) => {
              const list = id === undefined ? undefined : byId.get(id);
              if (list && channelCount(list, channel) === 0) throw new Error(t('errors:campaigns.emptyList'));
            },
          },
        ]}
      >
        <Select<number>
          data-testid="wizard-list"
          size="large"
          showSearch={{ optionFilterProp: 'label' }}
          loading={lists.isPending}
          placeholder={t('wizard.list.placeholder')}
          options={items.map((list) => ({ value: list.id, label: list.name }))}
          optionRender={(option) => {
            const list = byId.get(Number(option.value));
            const count = list ? channelCount(list, channel) : 0;
            return (
              <Flex justify="space-between" gap={12}>
                <span>{list?.name}</span>
                <Typography.Text type={count === 0 ? 'danger' : 'secondary'}>
                  {t(`wizard.list.count.${channel}`, { n: number.format(count) })}
                </Typography.Text>
              </Flex>
            );
          }}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['listId']}>
        {({ getFieldValue }) => {
          const list = byId.get(getFieldValue('listId') as number);
          if (!list) return null;
          return (
            <Typography.Text type="secondary" data-testid="wizard-list-summary">
              {t(`wizard.list.summary.${channel}`, {
                n: number.format(channelCount(list, channel)),
                total: number.format(list.counts.total),
              })}
            </Typography.Text>
          );
        }}
      </Form.Item>
    </>
  );
}

function TemplatePreview({ name, channel }: { name: string; channel: ChannelCategory }) {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const preview = useQuery(previewQuery(name));
  if (preview.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!preview.data) return null;
  if (channel === 'SMS') {
    const segments = preview.data.segments;
    return (
      <Flex vertical gap={8} data-testid="wizard-preview">
        <div
          style={{
            alignSelf: 'flex-start',
            maxWidth: 360,
            padding: '10px 14px',
            borderRadius: 16,
            borderBottomLeftRadius: 4,
            background: token.colorFillSecondary,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {preview.data.smsText}
        </div>
        {segments && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('wizard.template.segments', {
              characters: segments.characters,
              encoding: segments.encoding,
              count: segments.parts,
            })}
          </Typography.Text>
        )}
      </Flex>
    );
  }
  return (
    <Flex vertical gap={8} data-testid="wizard-preview">
      <Typography.Text>
        <Typography.Text type="secondary">{t('wizard.template.subject')} </Typography.Text>
        <Typography.Text strong>{preview.data.subject}</Typography.Text>
      </Typography.Text>
      <iframe
        title={t('wizard.template.previewTitle', { name })}
        sandbox=""
        srcDoc={preview.data.html}
        style={{
          width: '100%',
          height: 380,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          background: '#fff',
        }}
      />
    </Flex>
  );
}

export function TemplateStep({ channel }: { channel: ChannelCategory }) {
  const { t } = useTranslation('campaigns');
  const templates = useQuery(templatesQuery(channel));
  const items = templates.data?.items ?? [];
  return (
    <>
      {templates.isSuccess && items.length === 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(`wizard.template.none.${channel}`)}
          description={<Link to="/templates/create">{t('wizard.template.toTemplates')}</Link>}
        />
      )}
      <Form.Item
        name="templateName"
        label={t('wizard.template.label')}
        rules={[{ required: true, message: t('errors:validation.mandatory') }]}
      >
        <Select<string>
          data-testid="wizard-template"
          size="large"
          showSearch={{ optionFilterProp: 'label' }}
          loading={templates.isPending}
          placeholder={t('wizard.template.placeholder')}
          options={items.map((template) => ({ value: template.name, label: template.name, subject: template.subject }))}
          optionRender={(option) => (
            <Flex vertical>
              <span>{option.data.label}</span>
              {option.data.subject && (
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                  {option.data.subject}
                </Typography.Text>
              )}
            </Flex>
          )}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['templateName']}>
        {({ getFieldValue }) => {
          const name = getFieldValue('templateName') as string | undefined;
          return name ? <TemplatePreview name={name} channel={channel} /> : null;
        }}
      </Form.Item>
    </>
  );
}

export function RouteStep({ channel }: { channel: ChannelCategory }) {
  const { t } = useTranslation('campaigns');
  const { configs, groups, loading } = useRouteLookups(channel);
  const configById = new Map(configs.map((config) => [config.id, config]));
  const groupById = new Map(groups.map((group) => [group.id, group]));
  const noActive = new Error(t('errors:campaigns.noActiveConfig'));
  return (
    <>
      {!loading && configs.every((config) => !config.active) && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('errors:campaigns.noActiveConfig')}
          description={<Link to="/configs/providers">{t('wizard.route.toProviders')}</Link>}
        />
      )}
      <Form.Item name="route" label={t('wizard.route.label')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          size="large"
          options={[
            { value: 'config', label: <span data-testid="wizard-route-config">{t('wizard.route.config')}</span> },
            { value: 'group', label: <span data-testid="wizard-route-group">{t('wizard.route.group')}</span> },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['route']}>
        {({ getFieldValue }) =>
          getFieldValue('route') === 'group' ? (
            <Form.Item
              name="groupId"
              label={t('wizard.route.groupLabel')}
              extra={t('wizard.route.groupHelp')}
              rules={[
                { required: true, message: t('errors:validation.mandatory') },
                {
                  validator: async (_, id: number | undefined) => {
                    const group = id === undefined ? undefined : groupById.get(id);
                    if (group && activeMembers(group) === 0) throw noActive;
                  },
                },
              ]}
            >
              <Select<number>
                data-testid="wizard-group"
                size="large"
                placeholder={t('wizard.route.groupPlaceholder')}
                notFoundContent={
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('wizard.route.noGroups')}>
                    <Link to={`/configs/groups?category=${channel}`}>{t('wizard.route.toGroups')}</Link>
                  </Empty>
                }
                options={groups.map((group) => ({ value: group.id, label: group.name }))}
                optionRender={(option) => {
                  const group = groupById.get(Number(option.value));
                  if (!group) return option.label;
                  const active = activeMembers(group);
                  return (
                    <Flex justify="space-between" gap={12}>
                      <span>{group.name}</span>
                      <Typography.Text type={active === 0 ? 'danger' : 'secondary'}>
                        {t('wizard.route.groupMembers', { active, total: group.configs.length })}
                      </Typography.Text>
                    </Flex>
                  );
                }}
              />
            </Form.Item>
          ) : (
            <Form.Item
              name="configId"
              label={t('wizard.route.configLabel')}
              rules={[
                { required: true, message: t('errors:validation.mandatory') },
                {
                  validator: async (_, id: number | undefined) => {
                    const config = id === undefined ? undefined : configById.get(id);
                    if (config && !config.active) throw noActive;
                  },
                },
              ]}
            >
              <Select<number>
                data-testid="wizard-config"
                size="large"
                loading={loading}
                placeholder={t('wizard.route.configPlaceholder')}
                options={configs.map((config) => ({ value: config.id, label: config.name }))}
                optionRender={(option) => {
                  const config = configById.get(Number(option.value));
                  return (
                    <Flex justify="space-between" gap={12}>
                      <span>{config?.name}</span>
                      {config && !config.active && <Tag style={{ marginInlineEnd: 0 }}>{t('wizard.route.inactive')}</Tag>}
                    </Flex>
                  );
                }}
              />
            </Form.Item>
          )
        }
      </Form.Item>
    </>
  );
}
