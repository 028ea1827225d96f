/**
 * The campaign wizard (spec section 2): type, name, contact list, template, configurations, check and send.
 * The draft is saved when the configurations step is left, so the last step checks what the server holds;
 * `?id=` reopens a draft or scheduled campaign.
 */
import { ArrowLeftOutlined, ArrowRightOutlined, ClockCircleOutlined, SendOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Flex, Form, Result, Skeleton, Steps, Typography, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/http';
import { usePageTitle } from '../../../router/pageTitle';
import { useSession } from '../../../session/useSession';
import { ScreenHeader } from '../../../ui/ScreenHeader';
import { useUnsavedChanges } from '../../../ui/useUnsavedChanges';
import { formatTime } from '../../../utils/date';
import { optionsQuery } from '../../configs/api';
import { showSubmitError } from '../../configs/formErrors';
import {
  CAMPAIGNS_KEY,
  type Campaign,
  campaignKey,
  campaignQuery,
  campaignsApi,
  checkQuery,
  contactListsQuery,
  LISTS_KEY,
  templatesQuery,
} from './api';
import { CheckStep } from './CheckStep';
import { FallbackFields, otherChannel } from './FallbackFields';
import { ChannelTag } from './labels';
import { ListStep, NameStep, RouteStep, TemplateStep, TypeStep, useRouteLookups } from './WizardFields';
import { toEpoch, wallClock } from './zone';

interface WizardValues {
  channel: ChannelCategory;
  name?: string;
  listId?: number;
  templateName?: string;
  route: 'config' | 'group';
  configId?: number;
  groupId?: number;
  fallbackEnabled: boolean;
  fallbackTemplate?: string;
  fallbackRoute: 'config' | 'group';
  fallbackConfigId?: number;
  fallbackGroupId?: number;
  sendMode: 'now' | 'schedule';
  scheduledAt?: Dayjs;
}

const STEPS = ['type', 'name', 'list', 'template', 'route', 'check'] as const;
const CHECK = STEPS.length - 1;
const ROUTE = CHECK - 1;
const STEP_FIELDS: (keyof WizardValues)[][] = [
  ['channel'],
  ['name'],
  ['listId'],
  ['templateName'],
  ['route', 'configId', 'groupId', 'fallbackEnabled', 'fallbackTemplate', 'fallbackRoute', 'fallbackConfigId', 'fallbackGroupId'],
];
/** The step that owns each field the server may refuse. */
const FIELD_STEP: Record<string, number> = {
  channel: 0,
  name: 1,
  listId: 2,
  templateName: 3,
  configId: ROUTE,
  groupId: ROUTE,
  'fallback.templateName': ROUTE,
  'fallback.configId': ROUTE,
  'fallback.groupId': ROUTE,
};
/** The form field showing each server field whose name differs. */
const FORM_FIELD: Record<string, keyof WizardValues> = {
  'fallback.templateName': 'fallbackTemplate',
  'fallback.configId': 'fallbackConfigId',
  'fallback.groupId': 'fallbackGroupId',
};

function Wizard({
  initial,
  campaign,
  onCreated,
}: {
  initial: WizardValues;
  campaign?: Campaign;
  /** A new campaign's first save created its draft. */
  onCreated?: (id: number) => void;
}) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const zone = useSession().user?.timeZone;
  const [form] = Form.useForm<WizardValues>();
  usePageTitle(campaign ? t('wizard.editTitle', { name: campaign.name }) : undefined);
  const [current, setCurrent] = useState(0);
  // An existing campaign was checked once already, so every step may be opened from the start.
  const [reached, setReached] = useState(campaign ? CHECK : 0);
  const [campaignId, setCampaignId] = useState(campaign?.id);
  const [busy, setBusy] = useState(false);
  const unsaved = useUnsavedChanges();
  // Opened while scheduled: saving takes it off its schedule (the server makes it a draft), which the user must know.
  const [scheduledWhenOpened] = useState(campaign?.state === 'scheduled' ? campaign.scheduledAt : null);

  const channel = Form.useWatch('channel', form) ?? initial.channel;
  const name = Form.useWatch('name', form);
  const listId = Form.useWatch('listId', form);
  const templateName = Form.useWatch('templateName', form);
  const route = Form.useWatch('route', form) ?? initial.route;
  const configId = Form.useWatch('configId', form);
  const groupId = Form.useWatch('groupId', form);
  const fallbackEnabled = Form.useWatch('fallbackEnabled', form) ?? initial.fallbackEnabled;
  const fallbackTemplate = Form.useWatch('fallbackTemplate', form);
  const sendMode = Form.useWatch('sendMode', form) ?? initial.sendMode;

  const lists = useQuery(contactListsQuery);
  const options = useQuery(optionsQuery);
  const { configs, groups } = useRouteLookups(channel);
  const check = useQuery({ ...checkQuery(campaignId), enabled: current === CHECK && campaignId !== undefined });
  const listName = lists.data?.items.find((list) => list.id === listId)?.name;
  const configName = configs.find((config) => config.id === configId)?.name;
  const groupName = groups.find((group) => group.id === groupId)?.name;
  const defaultConfig =
    configs.find((config) => config.active && options.data?.some((option) => option.providerConfigId === config.id))?.id ??
    configs.find((config) => config.active)?.id;

  // A new campaign starts on the channel's default configuration once the configurations are known.
  useEffect(() => {
    if (form.getFieldValue('configId') === undefined && defaultConfig !== undefined)
      form.setFieldValue('configId', defaultConfig);
  }, [form, defaultConfig]);

  const save = async (): Promise<boolean> => {
    const values = form.getFieldsValue(true) as WizardValues;
    setBusy(true);
    try {
      const saved = await campaignsApi.save(campaignId, {
        name: (values.name ?? '').trim(),
        channel: values.channel,
        listId: values.listId ?? 0,
        templateName: values.templateName ?? '',
        ...(values.route === 'group' ? { groupId: values.groupId } : { configId: values.configId }),
        fallback: values.fallbackEnabled
          ? {
              templateName: values.fallbackTemplate ?? '',
              ...(values.fallbackRoute === 'group' ? { groupId: values.fallbackGroupId } : { configId: values.fallbackConfigId }),
            }
          : null,
      });
      unsaved.markSaved();
      if (campaignId === undefined) onCreated?.(saved.id);
      setCampaignId(saved.id);
      queryClient.setQueryData(campaignKey(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
      void queryClient.invalidateQueries({ queryKey: checkQuery(saved.id).queryKey });
      return true;
    } catch (error) {
      const steps = (error instanceof ApiError ? (error.fields ?? []) : [])
        .map((failure) => FIELD_STEP[failure.field])
        .filter((step) => step !== undefined);
      if (steps.length > 0) setCurrent(Math.min(...steps));
      showSubmitError(form, error, (field) => (field in FIELD_STEP ? [FORM_FIELD[field] ?? field] : undefined));
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** Moving forward validates every step on the way and saves the draft before the check. */
  const goTo = async (target: number) => {
    for (let step = current; step < target; step += 1) {
      try {
        await form.validateFields(STEP_FIELDS[step]);
      } catch {
        setCurrent(step);
        return;
      }
    }
    if (target === CHECK && current < CHECK && !(await save())) return;
    setCurrent(target);
    setReached((previous) => Math.max(previous, target));
  };

  const start = async () => {
    if (campaignId === undefined) return;
    let values: WizardValues;
    try {
      values = await form.validateFields(['sendMode', 'scheduledAt']);
    } catch {
      return;
    }
    const scheduledAt = values.sendMode === 'schedule' && values.scheduledAt ? toEpoch(values.scheduledAt, zone) : null;
    setBusy(true);
    try {
      const started = await campaignsApi.start(campaignId, scheduledAt);
      unsaved.markSaved();
      message.success(t(started.state === 'scheduled' ? 'wizard.scheduled' : 'wizard.started', { name: started.name }));
      navigate(`/mass-mail/campaigns/view/${started.id}`);
      queryClient.setQueryData(campaignKey(started.id), started);
      void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    } catch {
      // The HTTP client has shown why the server refused.
    } finally {
      setBusy(false);
    }
  };

  const routeLabel = route === 'group' ? groupName : configName;
  const chosen: Record<(typeof STEPS)[number], string | undefined> = {
    type: t(`channels.${channel}`),
    name,
    list: listName,
    template: templateName,
    route: routeLabel,
    check: undefined,
  };
  const stepKey = STEPS[current] ?? 'type';

  return (
    <Card variant="borderless" data-testid="campaign-wizard">
      <ScreenHeader
        title={campaign ? t('wizard.editTitle', { name: campaign.name }) : t('wizard.title')}
        subtitle={t('wizard.subtitle')}
        marginBottom={24}
      >
        <Button onClick={() => navigate('/mass-mail/campaigns')}>{t('wizard.toList')}</Button>
      </ScreenHeader>
      <Steps
        size="small"
        current={current}
        onChange={(target) => void goTo(target)}
        items={STEPS.map((key, index) => ({
          title: t(`wizard.steps.${key}`),
          disabled: index > reached || busy,
          content:
            index < current || index <= reached ? (
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 140, fontSize: 12 }}>
                {chosen[key]}
              </Typography.Text>
            ) : undefined,
        }))}
      />
      <div
        style={{
          maxWidth: current === CHECK || current === 3 ? 880 : 680,
          margin: '32px auto 0',
          minHeight: 300,
        }}
      >
        {scheduledWhenOpened !== null && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 24 }}
            data-testid="wizard-unschedule-warning"
            title={t(campaign?.state === 'scheduled' ? 'wizard.scheduledEdit' : 'wizard.unscheduled', {
              time: formatTime(scheduledWhenOpened, 'YYYY-MM-DD HH:mm'),
            })}
          />
        )}
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t(`wizard.${stepKey}.title`)}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t(`wizard.${stepKey}.description`)}</Typography.Paragraph>
        <Form<WizardValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={initial}
          data-testid="wizard-form"
          onValuesChange={(changed: Partial<WizardValues>) => {
            unsaved.markDirty();
            // Templates and configurations belong to one channel, so a new channel starts them over.
            if (changed.channel)
              form.setFieldsValue({
                templateName: undefined,
                configId: undefined,
                groupId: undefined,
                route: 'config',
                fallbackTemplate: undefined,
                fallbackConfigId: undefined,
                fallbackGroupId: undefined,
              });
          }}
        >
          {/* Every step stays mounted, so a field the server refuses keeps its error while another step is open. */}
          <div hidden={current !== 0}>
            <TypeStep />
          </div>
          <div hidden={current !== 1}>
            <NameStep />
          </div>
          <div hidden={current !== 2}>
            <ListStep channel={channel} />
          </div>
          <div hidden={current !== 3}>
            <TemplateStep channel={channel} />
          </div>
          <div hidden={current !== ROUTE}>
            <RouteStep channel={channel} />
            <FallbackFields channel={channel} />
          </div>
          {current === CHECK && (
            <>
              <Descriptions
                size="small"
                bordered
                column={{ xs: 1, md: 2 }}
                style={{ marginBottom: 24 }}
                items={[
                  { key: 'type', label: t('wizard.steps.type'), children: <ChannelTag channel={channel} /> },
                  { key: 'name', label: t('wizard.steps.name'), children: name },
                  { key: 'list', label: t('wizard.steps.list'), children: listName },
                  { key: 'template', label: t('wizard.steps.template'), children: templateName },
                  {
                    key: 'route',
                    label: t('wizard.steps.route'),
                    span: 'filled',
                    children: t(route === 'group' ? 'wizard.route.viaGroup' : 'wizard.route.viaConfig', {
                      name: routeLabel ?? '—',
                    }),
                  },
                  {
                    key: 'fallback',
                    label: t('wizard.fallback.summaryLabel'),
                    span: 'filled',
                    children: fallbackEnabled
                      ? t('wizard.fallback.summary', {
                          other: t(`channels.${otherChannel(channel)}`),
                          template: fallbackTemplate,
                        })
                      : t('wizard.fallback.off'),
                  },
                ]}
              />
              <CheckStep
                campaignId={campaignId}
                channel={channel}
                templateName={templateName ?? ''}
                route={route}
                configId={configId}
                groupId={groupId}
              />
            </>
          )}
        </Form>
      </div>
      <Flex
        justify="space-between"
        gap={12}
        style={{ marginTop: 32, paddingTop: 16, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Button
          icon={<ArrowLeftOutlined />}
          disabled={current === 0 || busy}
          data-testid="wizard-back"
          onClick={() => setCurrent(current - 1)}
        >
          {t('wizard.back')}
        </Button>
        {current < CHECK ? (
          <Button type="primary" loading={busy} data-testid="wizard-next" onClick={() => void goTo(current + 1)}>
            {t(current === ROUTE ? 'wizard.toCheck' : 'wizard.next')} <ArrowRightOutlined />
          </Button>
        ) : (
          <Button
            type="primary"
            icon={sendMode === 'schedule' ? <ClockCircleOutlined /> : <SendOutlined />}
            loading={busy}
            disabled={check.data?.recipients === 0}
            data-testid="wizard-start"
            onClick={() => void start()}
          >
            {t(sendMode === 'schedule' ? 'wizard.scheduleStart' : 'wizard.sendNow')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}

const NEW_CAMPAIGN: WizardValues = {
  channel: 'EMAIL',
  route: 'config',
  fallbackEnabled: false,
  fallbackRoute: 'config',
  sendMode: 'now',
};

/** Reopens a saved campaign: its template is named by id, so the channel's templates are read first. */
function EditWizard({ id }: { id: number }) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const zone = useSession().user?.timeZone;
  const campaign = useQuery({ ...campaignQuery(id), staleTime: 0 });
  const templates = useQuery({ ...templatesQuery(campaign.data?.channel ?? 'EMAIL'), enabled: campaign.isSuccess });
  if (campaign.isError) {
    return (
      <Card variant="borderless">
        <Result
          status="404"
          title={t('wizard.missing')}
          extra={<Button onClick={() => navigate('/mass-mail/campaigns')}>{t('wizard.toList')}</Button>}
        />
      </Card>
    );
  }
  if (!campaign.data || !templates.data) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  const saved = campaign.data;
  if (saved.state !== 'draft' && saved.state !== 'scheduled') {
    return (
      <Card variant="borderless">
        <Result
          status="info"
          title={t('wizard.locked', { name: saved.name })}
          extra={
            <Button type="primary" onClick={() => navigate(`/mass-mail/campaigns/view/${saved.id}`)}>
              {t('wizard.toCampaign')}
            </Button>
          }
        />
      </Card>
    );
  }
  const initial: WizardValues = {
    channel: saved.channel,
    name: saved.name,
    listId: saved.listId ?? undefined,
    templateName: templates.data.items.find((template) => template.id === saved.templateId)?.name,
    // 0 means no group as well: the server stores a null sent for it as 0.
    route: saved.groupId ? 'group' : 'config',
    configId: saved.configId ?? undefined,
    groupId: saved.groupId || undefined,
    fallbackEnabled: saved.fallback !== null,
    fallbackTemplate: saved.fallback?.templateName ?? undefined,
    fallbackRoute: saved.fallback?.groupId ? 'group' : 'config',
    fallbackConfigId: saved.fallback?.configId ?? undefined,
    fallbackGroupId: saved.fallback?.groupId || undefined,
    sendMode: saved.scheduledAt !== null ? 'schedule' : 'now',
    scheduledAt: saved.scheduledAt !== null ? wallClock(saved.scheduledAt, zone) : undefined,
  };
  return <Wizard initial={initial} campaign={saved} />;
}

export default function CampaignWizard() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The draft this new-campaign wizard saved: its id goes into the address, so a reload reopens it instead of
  // starting another draft, while this wizard carries on where it is.
  const [createdId, setCreatedId] = useState<number>();
  const id = Number(searchParams.get('id'));
  if (Number.isInteger(id) && id > 0 && id !== createdId) return <EditWizard key={id} id={id} />;
  return (
    <Wizard
      initial={NEW_CAMPAIGN}
      onCreated={(created) => {
        setCreatedId(created);
        setSearchParams({ id: String(created) }, { replace: true });
      }}
    />
  );
}
