/** The wizard's last step: who receives the campaign, what SMS it costs, when it goes, and a test send. */
import { ClockCircleOutlined, ExperimentOutlined, SendOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Flex,
  Form,
  Input,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Typography,
  theme,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../session/useSession';
import { formatMoney } from '../../../utils/money';
import type { TestSendResult } from '../../templates/api';
import { campaignsApi, checkQuery } from './api';
import { activeMembers, useRouteLookups } from './WizardFields';
import { offsetLabel, wallClock, zoneName } from './zone';

function Figure({ title, value, testId, hint }: { title: string; value: ReactNode; testId: string; hint?: string }) {
  const { token } = theme.useToken();
  return (
    <div
      data-testid={testId}
      style={{
        padding: token.padding,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
        height: '100%',
      }}
    >
      <Statistic title={title} value={value as string} styles={{ content: { fontVariantNumeric: 'tabular-nums' } }} />
      {hint && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Text>
      )}
    </div>
  );
}

interface TestSendProps {
  channel: ChannelCategory;
  templateName: string;
  route: 'config' | 'group';
  configId?: number;
  groupId?: number;
}

/** Sends the chosen template to one address now, outside the campaign, through one configuration. */
function TestSend({ channel, templateName, route, configId, groupId }: TestSendProps) {
  const { t } = useTranslation('campaigns');
  const { configs, groups } = useRouteLookups(channel);
  const active = configs.filter((config) => config.active);
  const group = groups.find((entry) => entry.id === groupId);
  const groupFirst = group?.configs
    .filter((member) => member.active)
    .sort((a, b) => a.priority - b.priority)[0]?.providerConfigId;
  const suggested = route === 'group' ? groupFirst : active.find((config) => config.id === configId)?.id;
  const [chosen, setChosen] = useState<number>();
  const [to, setTo] = useState('');
  const [missing, setMissing] = useState(false);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestSendResult>();
  const providerConfigId = chosen ?? suggested ?? active[0]?.id;

  const send = async () => {
    if (!to.trim() || providerConfigId === undefined) {
      setMissing(true);
      return;
    }
    setSending(true);
    setResult(undefined);
    try {
      setResult(await campaignsApi.testSend(templateName, providerConfigId, to.trim()));
    } catch (error) {
      setResult({ accepted: false, providerMessageId: null, error: error instanceof Error ? error.message : String(error) });
    } finally {
      setSending(false);
    }
  };

  return (
    <Card
      size="small"
      title={
        <Space>
          <ExperimentOutlined />
          {t('wizard.check.test.title')}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t('wizard.check.test.help')}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <Input
          data-testid="wizard-test-to"
          status={missing && !to.trim() ? 'error' : undefined}
          style={{ flex: '1 1 220px' }}
          placeholder={t(`wizard.check.test.to.${channel}`)}
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
            setMissing(false);
          }}
          onPressEnter={() => void send()}
        />
        <Select<number>
          data-testid="wizard-test-config"
          style={{ flex: '0 1 220px' }}
          value={providerConfigId}
          onChange={setChosen}
          placeholder={t('wizard.check.test.config')}
          options={active.map((config) => ({ value: config.id, label: config.name }))}
        />
        <Button icon={<SendOutlined />} loading={sending} data-testid="wizard-test-send" onClick={() => void send()}>
          {t('wizard.check.test.send')}
        </Button>
      </Flex>
      {missing && !to.trim() && (
        <Typography.Text type="danger" data-testid="wizard-test-missing" role="alert">
          {t('errors:validation.mandatory')}
        </Typography.Text>
      )}
      {result && (
        <Alert
          data-testid="wizard-test-result"
          style={{ marginTop: 12 }}
          showIcon
          type={result.accepted ? 'success' : 'error'}
          title={result.accepted ? t('wizard.check.test.accepted', { to: to.trim() }) : t('wizard.check.test.refused')}
          description={result.accepted ? result.providerMessageId : result.error}
        />
      )}
    </Card>
  );
}

interface CheckStepProps extends TestSendProps {
  campaignId?: number;
}

export function CheckStep({ campaignId, ...test }: CheckStepProps) {
  const { t, i18n } = useTranslation('campaigns');
  const zone = useSession().user?.timeZone;
  const check = useQuery(checkQuery(campaignId));
  const { groups } = useRouteLookups(test.channel);
  const number = new Intl.NumberFormat(i18n.language);
  const group = groups.find((entry) => entry.id === test.groupId);
  const cost = check.data?.estimatedCost ?? null;
  const figureSpan = test.channel === 'SMS' ? 8 : 12;

  return (
    <Flex vertical gap={24}>
      {check.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : check.data ? (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} sm={12} lg={figureSpan}>
              <Figure
                testId="wizard-recipients"
                title={t('wizard.check.recipients')}
                value={number.format(check.data.recipients)}
                hint={t('wizard.check.recipientsHint')}
              />
            </Col>
            <Col xs={24} sm={12} lg={figureSpan}>
              <Figure
                testId="wizard-suppressed"
                title={t('wizard.check.suppressed')}
                value={number.format(check.data.suppressed)}
                hint={t('wizard.check.suppressedHint')}
              />
            </Col>
            {test.channel === 'SMS' && (
              <>
                <Col xs={24} sm={12} lg={8}>
                  <Figure
                    testId="wizard-sms-parts"
                    title={t('wizard.check.smsParts')}
                    value={check.data.smsParts === null ? '—' : number.format(check.data.smsParts)}
                    hint={t('wizard.check.smsPartsHint')}
                  />
                </Col>
                <Col xs={24} sm={12} lg={8}>
                  <Figure
                    testId="wizard-estimated-parts"
                    title={t('wizard.check.totalParts')}
                    value={check.data.estimatedParts === null ? '—' : number.format(check.data.estimatedParts)}
                    hint={t('wizard.check.totalPartsHint')}
                  />
                </Col>
                <Col xs={24} sm={12} lg={8}>
                  <Figure
                    testId="wizard-estimated-cost"
                    title={t('wizard.check.estimated')}
                    value={cost ? formatMoney(cost.amount, cost.currency, i18n.language) : '—'}
                    hint={
                      cost ? t('wizard.check.estimatedHint', { config: cost.configName }) : t('wizard.check.estimatedUnpriced')
                    }
                  />
                </Col>
              </>
            )}
          </Row>
          {cost && cost.balance !== null && cost.balance < cost.amount && (
            <Alert
              type="warning"
              showIcon
              data-testid="wizard-balance-short"
              title={t('wizard.check.balanceShort', {
                config: cost.configName,
                balance: formatMoney(cost.balance, cost.currency, i18n.language),
                cost: formatMoney(cost.amount, cost.currency, i18n.language),
              })}
            />
          )}
          {check.data.recipients === 0 && <Alert type="error" showIcon title={t('errors:campaigns.emptyList')} />}
          {check.data.limitHeadroom !== null && check.data.recipients > check.data.limitHeadroom && (
            <Alert
              type="warning"
              showIcon
              data-testid="wizard-limit-headroom"
              title={t('wizard.check.overLimit', {
                n: number.format(check.data.limitHeadroom),
                rest: number.format(check.data.recipients - check.data.limitHeadroom),
              })}
            />
          )}
          {test.route === 'group' && group && activeMembers(group) < group.configs.length && (
            <Alert
              type="info"
              showIcon
              title={t('wizard.check.inactiveMembers', {
                inactive: group.configs.length - activeMembers(group),
                total: group.configs.length,
              })}
            />
          )}
        </>
      ) : null}
      <div>
        <Form.Item name="sendMode" label={t('wizard.check.when')} style={{ marginBottom: 12 }}>
          <Radio.Group
            options={[
              {
                value: 'now',
                label: (
                  <span data-testid="wizard-send-now">
                    <SendOutlined /> {t('wizard.check.now')}
                  </span>
                ),
              },
              {
                value: 'schedule',
                label: (
                  <span data-testid="wizard-schedule">
                    <ClockCircleOutlined /> {t('wizard.check.schedule')}
                  </span>
                ),
              },
            ]}
          />
        </Form.Item>
        <Form.Item noStyle dependencies={['sendMode']}>
          {({ getFieldValue }) =>
            getFieldValue('sendMode') === 'schedule' && (
              <Form.Item
                name="scheduledAt"
                extra={t('wizard.check.zone', { zone: zoneName(zone, i18n.language), offset: offsetLabel(zone) })}
                rules={[
                  { required: true, message: t('errors:validation.mandatory') },
                  {
                    validator: async (_, value: Dayjs | undefined) => {
                      if (value && !value.isAfter(wallClock(Date.now(), zone))) throw new Error(t('wizard.check.past'));
                    },
                  },
                ]}
              >
                <DatePicker
                  data-testid="wizard-schedule-at"
                  showTime={{ format: 'HH:mm' }}
                  // A time typed with seconds is read too, not dropped.
                  format={['YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss']}
                  placeholder={t('wizard.check.schedulePlaceholder')}
                  minuteStep={5}
                  showNow={false}
                  style={{ width: 260 }}
                  disabledDate={(day) => day.isBefore(wallClock(Date.now(), zone), 'day')}
                />
              </Form.Item>
            )
          }
        </Form.Item>
      </div>
      <TestSend {...test} />
    </Flex>
  );
}
