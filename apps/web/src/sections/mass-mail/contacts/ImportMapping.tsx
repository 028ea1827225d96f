/** The wizard's second step: how the file was read, the first records with a field per column, the mode and the start. */
import { ExclamationCircleFilled, FileTextOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { IMPORT_PREVIEW_ROWS } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Divider,
  Flex,
  Form,
  Input,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportError } from '../../../api/http';
import { useCountryOptions } from '../../configs/labels';
import {
  ENCODINGS,
  type Encoding,
  IMPORT_MODES,
  type ImportDetails,
  type ImportMode,
  type ImportPreview,
  importQuery,
  importsApi,
  listQuery,
  type PreviewSettings,
  SEPARATORS,
  type Separator,
} from './api';
import { formatBytes, formatNumber } from './labels';
import { type ColumnChoice, checkChoices, choicesOf, FIELD_TARGETS, hasProblems, mappingOf, type Target } from './mapping';

/** The select's stand-in for "no separator": a file of one column. */
const ONE_COLUMN = 'none';
const SEPARATOR_KEYS: Record<Separator, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

interface PreviewRow {
  key: number;
  cells: string[];
}

interface ServerProblems {
  columns: Record<number, string>;
  mapping?: string;
  country?: string;
}

interface ImportMappingProps {
  details: ImportDetails;
  onStarted: () => void;
  onAnotherFile: () => void;
}

function ColumnHeader({
  index,
  title,
  choice,
  problem,
  onChange,
}: {
  index: number;
  title: string | undefined;
  choice: ColumnChoice;
  problem: string | undefined;
  onChange: (choice: ColumnChoice) => void;
}) {
  const { t } = useTranslation('contacts');
  const options = [
    ...FIELD_TARGETS.map((target) => ({ value: target, label: t(`fields.${target}`) })),
    { value: 'attribute', label: t('import.mapping.attribute') },
    { value: 'skip', label: t('import.mapping.skip') },
  ];
  return (
    <Flex vertical gap={6} style={{ minWidth: 170, fontWeight: 'normal' }}>
      <Typography.Text strong ellipsis={{ tooltip: title }} style={{ maxWidth: 220 }}>
        {title ?? t('import.mapping.column', { n: index + 1 })}
      </Typography.Text>
      <Select<Target>
        size="small"
        data-testid={`import-mapping-${index}`}
        value={choice.target}
        status={problem && choice.target !== 'attribute' ? 'error' : undefined}
        onChange={(target) => onChange({ ...choice, target })}
        options={options}
        popupMatchSelectWidth={false}
      />
      {choice.target === 'attribute' && (
        <Input
          size="small"
          data-testid={`import-attribute-${index}`}
          value={choice.attribute}
          status={problem ? 'error' : undefined}
          placeholder={t('import.mapping.attributeName')}
          aria-label={t('import.mapping.attributeName')}
          maxLength={64}
          onChange={(event) => onChange({ ...choice, attribute: event.target.value })}
        />
      )}
      {problem && (
        <Typography.Text type="danger" style={{ fontSize: 12, whiteSpace: 'normal' }}>
          {problem}
        </Typography.Text>
      )}
    </Flex>
  );
}

export function ImportMapping({ details, onStarted, onAnotherFile }: ImportMappingProps) {
  const { t, i18n } = useTranslation('contacts');
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const countries = useCountryOptions();
  // Fetched afresh when this step opens, so the replace warning quotes the list's counts as they are now.
  const { data: list } = useQuery({ ...listQuery(details.listId), refetchOnMount: 'always' });
  const preview = details.preview;
  const [choices, setChoices] = useState(() =>
    choicesOf(details.mapping ?? preview.suggestedMapping, preview.columnCount, preview.header),
  );
  const [mode, setMode] = useState<ImportMode>(details.mode ?? 'add');
  const [country, setCountry] = useState<string | null>(details.defaultCountry ?? preview.defaultCountry);
  const [server, setServer] = useState<ServerProblems>({ columns: {} });
  const [rereading, setRereading] = useState(false);
  const [starting, setStarting] = useState(false);
  const problems = checkChoices(choices, t);

  const reread = async (settings: PreviewSettings) => {
    setRereading(true);
    try {
      const answer = await importsApi.preview(details.id, settings);
      const next: ImportPreview = answer.preview;
      queryClient.setQueryData(importQuery(details.id).queryKey, { ...details, preview: next });
      setChoices(choicesOf(next.suggestedMapping, next.columnCount, next.header));
      setServer({ columns: {} });
    } catch (error) {
      reportError(error);
    } finally {
      setRereading(false);
    }
  };

  const choose = (index: number, choice: ColumnChoice) => {
    setChoices((previous) => previous.map((current, column) => (column === index ? choice : current)));
    setServer((previous) => ({ ...previous, columns: {}, mapping: undefined }));
  };

  const start = async () => {
    setStarting(true);
    try {
      const started = await importsApi.start(details.id, { mapping: mappingOf(choices), mode, defaultCountry: country });
      queryClient.setQueryData(importQuery(details.id).queryKey, started);
      onStarted();
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? []) : [];
      const next: ServerProblems = { columns: {} };
      let placed = fields.length > 0;
      for (const field of fields) {
        const column = /^mapping\.(\d+)$/.exec(field.field)?.[1];
        if (column !== undefined) next.columns[Number(column)] = field.message;
        else if (field.field === 'mapping') next.mapping = field.message;
        else if (field.field === 'defaultCountry') next.country = field.message;
        else placed = false;
      }
      setServer(next);
      if (!placed) reportError(error);
    } finally {
      setStarting(false);
    }
  };

  const rows: PreviewRow[] = preview.rows.map((cells, index) => ({ key: index, cells }));
  const columns: ColumnsType<PreviewRow> = [
    {
      key: 'record',
      title: '#',
      width: 56,
      render: (_, row) =>
        row.cells.length === preview.columnCount ? (
          <Typography.Text type="secondary">{row.key + 1}</Typography.Text>
        ) : (
          <Tooltip title={t('errors:import.row.columnCount', { expected: preview.columnCount, found: row.cells.length })}>
            <Space size={4} data-testid="import-preview-mismatch">
              <Typography.Text type="secondary">{row.key + 1}</Typography.Text>
              <ExclamationCircleFilled style={{ color: token.colorWarning }} />
            </Space>
          </Tooltip>
        ),
    },
    ...choices.map((choice, index) => ({
      key: `column-${index}`,
      title: (
        <ColumnHeader
          index={index}
          title={preview.header?.[index]}
          choice={choice}
          problem={server.columns[index] ?? problems.columns[index]}
          onChange={(next: ColumnChoice) => choose(index, next)}
        />
      ),
      onCell: () => ({ style: { opacity: choice.target === 'skip' ? 0.4 : 1 } }),
      render: (_: unknown, row: PreviewRow) => {
        const value = row.cells[index];
        return value ? (
          <Typography.Text ellipsis={{ tooltip: value }} style={{ maxWidth: 260 }}>
            {value}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        );
      },
    })),
  ];

  const mappingProblem = server.mapping ?? (problems.noContact ? t('errors:import.mappingNoContact') : undefined);
  const blocked = hasProblems(problems);
  // Replacing an empty list removes nothing, so it needs neither the warning nor the confirmation.
  const replacing = mode === 'replace' && (list?.counts.total ?? 0) > 0;
  const startButton = (
    <Button
      type="primary"
      icon={<PlayCircleOutlined />}
      data-testid="import-start"
      loading={starting}
      disabled={blocked || rereading}
      onClick={replacing ? undefined : start}
    >
      {t('import.mapping.start')}
    </Button>
  );

  return (
    <Flex vertical gap={20}>
      <Flex justify="space-between" align="center" gap={16} wrap data-testid="import-settings">
        <Space size={10} wrap>
          <FileTextOutlined style={{ fontSize: 20, color: token.colorPrimary }} />
          <Typography.Text strong data-testid="import-file-name">
            {details.fileName}
          </Typography.Text>
          <Typography.Text type="secondary">{formatBytes(t, details.sizeBytes, i18n.language)}</Typography.Text>
        </Space>
        <Space size={16} wrap>
          <Space size={6}>
            <Typography.Text type="secondary">{t('import.mapping.encoding')}</Typography.Text>
            <Select<Encoding>
              size="small"
              data-testid="import-encoding"
              value={preview.encoding}
              disabled={rereading}
              style={{ width: 150 }}
              onChange={(encoding) => reread({ encoding })}
              options={ENCODINGS.map((encoding) => ({ value: encoding, label: t(`encodings.${encoding}`) }))}
            />
          </Space>
          <Space size={6}>
            <Typography.Text type="secondary">{t('import.mapping.separator')}</Typography.Text>
            <Select<string>
              size="small"
              data-testid="import-separator"
              value={preview.separator ?? ONE_COLUMN}
              disabled={rereading}
              style={{ width: 170 }}
              onChange={(value) => reread({ separator: value === ONE_COLUMN ? null : (value as Separator) })}
              options={[
                ...SEPARATORS.map((separator) => ({ value: separator, label: t(`separators.${SEPARATOR_KEYS[separator]}`) })),
                { value: ONE_COLUMN, label: t('separators.none') },
              ]}
            />
          </Space>
          <Space size={6}>
            <Switch
              size="small"
              data-testid="import-header"
              checked={preview.hasHeader}
              disabled={rereading}
              onChange={(hasHeader) => reread({ hasHeader })}
            />
            <Typography.Text type="secondary">{t('import.mapping.hasHeader')}</Typography.Text>
          </Space>
        </Space>
      </Flex>

      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('import.mapping.previewTitle')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {t('import.mapping.previewHelp', {
            rows: Math.min(IMPORT_PREVIEW_ROWS, preview.rows.length),
            columns: preview.columnCount,
          })}
        </Typography.Paragraph>
        {mappingProblem && (
          <Alert type="error" showIcon data-testid="import-mapping-problem" style={{ marginBottom: 12 }} title={mappingProblem} />
        )}
        {/* Scrolled by its own box: the table's scroll.x would render every column title twice, selects included. */}
        <div style={{ overflowX: 'auto' }}>
          <Table<PreviewRow>
            size="small"
            bordered
            data-testid="import-preview-table"
            loading={rereading}
            columns={columns}
            dataSource={rows}
            pagination={false}
            locale={{ emptyText: t('import.mapping.noRows') }}
          />
        </div>
      </div>

      <Row gutter={[32, 16]}>
        <Col xs={24} lg={14}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('import.mode.title')}
          </Typography.Title>
          <Radio.Group
            data-testid="import-mode"
            value={mode}
            onChange={(event) => setMode(event.target.value as ImportMode)}
            style={{ display: 'flex', flexDirection: 'column', gap: 10 }}
          >
            {IMPORT_MODES.map((value) => (
              <Radio key={value} value={value} data-testid={`import-mode-${value}`}>
                <Typography.Text strong>{t(`import.mode.${value}.label`)}</Typography.Text>
                <br />
                <Typography.Text type="secondary">{t(`import.mode.${value}.help`)}</Typography.Text>
              </Radio>
            ))}
          </Radio.Group>
          {replacing && (
            <Alert
              type="warning"
              showIcon
              data-testid="import-replace-warning"
              style={{ marginTop: 12 }}
              title={t('import.mode.replace.warning', {
                name: list?.name ?? '',
                count: list?.counts.total ?? 0,
                n: formatNumber(list?.counts.total ?? 0, i18n.language),
              })}
            />
          )}
        </Col>
        <Col xs={24} lg={10}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('import.country.title')}
          </Typography.Title>
          <Form.Item
            validateStatus={server.country ? 'error' : undefined}
            help={server.country}
            extra={t('import.country.help')}
            style={{ marginBottom: 0 }}
          >
            <Select
              data-testid="import-country"
              allowClear
              value={country ?? undefined}
              placeholder={t('import.country.none')}
              showSearch={{ optionFilterProp: 'search' }}
              options={countries}
              onChange={(value?: string) => {
                setCountry(value ?? null);
                setServer((previous) => ({ ...previous, country: undefined }));
              }}
            />
          </Form.Item>
        </Col>
      </Row>

      <Divider style={{ margin: 0 }} />
      <Flex justify="space-between" gap={12} wrap>
        <Button data-testid="import-another-file" onClick={onAnotherFile}>
          {t('import.mapping.anotherFile')}
        </Button>
        {replacing ? (
          <Popconfirm
            title={t('import.mode.replace.confirmTitle')}
            description={t('import.mode.replace.confirm', { name: list?.name ?? '' })}
            okText={t('import.mode.replace.confirmOk')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={start}
          >
            {startButton}
          </Popconfirm>
        ) : (
          startButton
        )}
      </Flex>
    </Flex>
  );
}
