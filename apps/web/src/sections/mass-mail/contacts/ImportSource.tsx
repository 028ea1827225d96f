/** The wizard's first step: the list to import into (or a new one) and the file, sent with upload progress. */
import { CheckCircleOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { IMPORT_PREVIEW_ROWS } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Flex, Form, Progress, Row, Select, Typography, theme, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportError } from '../../../api/http';
import { textList } from '../../../ui/textList';
import { LISTS_KEY, listQuery, listsQuery, uploadImport } from './api';
import { ImportHistory } from './ImportHistory';
import { ListForm } from './ListForm';
import { formatNumber } from './labels';

/** Lists offered in the picker at once; the server's largest page, narrowed by typing. */
const LOOKUP_SIZE = 100;
const ACCEPTED = /\.(csv|txt)$/i;

interface ImportSourceProps {
  listId: number | undefined;
  onList: (listId: number) => void;
  onUploaded: (importId: number) => void;
  onOpenImport: (importId: number) => void;
}

export function ImportSource({ listId, onList, onUploaded, onOpenImport }: ImportSourceProps) {
  const { t, i18n } = useTranslation('contacts');
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [formKey, setFormKey] = useState(0);
  const [formOpen, setFormOpen] = useState(false);
  const [upload, setUpload] = useState<{ name: string; percent: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lists = useQuery(listsQuery(1, LOOKUP_SIZE, search));
  const chosen = useQuery({ ...listQuery(listId ?? 0), enabled: listId !== undefined });

  const options = (lists.data?.items ?? []).map((list) => ({ value: list.id, label: list.name, total: list.counts.total }));
  if (chosen.data && !options.some((option) => option.value === chosen.data.id)) {
    options.unshift({ value: chosen.data.id, label: chosen.data.name, total: chosen.data.counts.total });
  }

  const send = (file: File) => {
    setError(null);
    if (listId === undefined) return;
    if (!ACCEPTED.test(file.name)) {
      setError(t('errors:upload.wrongFile'));
      return;
    }
    if (file.size === 0) {
      setError(t('errors:import.emptyFile'));
      return;
    }
    setUpload({ name: file.name, percent: 0 });
    uploadImport(listId, file, (percent) => setUpload({ name: file.name, percent }))
      .then((answer) => onUploaded(answer.importId))
      .catch((failure: unknown) => {
        // A lost session signs out as everywhere else; what is wrong with the file is shown next to it.
        if (failure instanceof ApiError && failure.status === 401) reportError(failure);
        setError(failure instanceof Error ? failure.message : String(failure));
      })
      .finally(() => setUpload(null));
  };

  return (
    <Row gutter={[32, 24]}>
      <Col xs={24} lg={15}>
        <Form layout="vertical" requiredMark={false}>
          <Form.Item label={t('import.source.list')} extra={t('import.source.listHelp')}>
            <Flex gap={8}>
              <Select
                data-testid="import-list"
                style={{ flex: 1 }}
                value={listId}
                placeholder={t('import.source.listPlaceholder')}
                loading={lists.isFetching}
                showSearch={{ filterOption: false, onSearch: (value) => setSearch(value.trim()) }}
                onChange={(value: number) => {
                  setError(null);
                  onList(value);
                }}
                notFoundContent={lists.isFetching ? null : t('import.source.noLists')}
                options={options}
                optionRender={(option) => (
                  <Flex justify="space-between" gap={12}>
                    <Typography.Text ellipsis>{option.data.label}</Typography.Text>
                    <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                      {t('import.source.contacts', {
                        count: option.data.total,
                        n: formatNumber(option.data.total, i18n.language),
                      })}
                    </Typography.Text>
                  </Flex>
                )}
              />
              <Button
                icon={<PlusOutlined />}
                data-testid="import-new-list"
                onClick={() => {
                  setFormKey((key) => key + 1);
                  setFormOpen(true);
                }}
              >
                {t('import.source.newList')}
              </Button>
            </Flex>
          </Form.Item>
          {chosen.data?.state === 'importing' && (
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('import.source.busy')} />
          )}
          <Form.Item label={t('import.source.file')} style={{ marginBottom: 12 }}>
            <div data-testid="import-upload">
              <Upload.Dragger
                accept=".csv,.txt"
                multiple={false}
                showUploadList={false}
                disabled={listId === undefined || upload !== null}
                beforeUpload={(file) => {
                  send(file);
                  // The file is sent by uploadImport, not by antd's own request.
                  return false;
                }}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">
                  {listId === undefined ? t('import.source.chooseListFirst') : t('import.source.drop')}
                </p>
                <p className="ant-upload-hint">{t('import.source.dropHint')}</p>
              </Upload.Dragger>
            </div>
          </Form.Item>
          {upload && (
            <Flex vertical gap={4} data-testid="import-uploading">
              <Typography.Text type="secondary">{t('import.source.uploading', { name: upload.name })}</Typography.Text>
              <Progress percent={upload.percent} size="small" status="active" />
            </Flex>
          )}
          {error && (
            <Alert
              type="error"
              showIcon
              data-testid="import-upload-error"
              title={t('import.source.refused')}
              description={error}
              closable={{ onClose: () => setError(null) }}
            />
          )}
        </Form>
      </Col>
      <Col xs={24} lg={9}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('import.source.formatsTitle')}
        </Typography.Title>
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {textList(t, 'import.source.formats', { rows: IMPORT_PREVIEW_ROWS }).map((line) => (
            <li key={line} style={{ display: 'flex', gap: 8, padding: '4px 0' }}>
              <CheckCircleOutlined style={{ color: token.colorSuccess, marginTop: 4 }} />
              <Typography.Text type="secondary">{line}</Typography.Text>
            </li>
          ))}
        </ul>
      </Col>
      {listId !== undefined && (
        <Col span={24}>
          <ImportHistory listId={listId} onOpen={onOpenImport} />
        </Col>
      )}
      <ListForm
        key={formKey}
        open={formOpen}
        onClose={() => setFormOpen(false)}
        onSaved={(list) => {
          setFormOpen(false);
          void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
          onList(list.id);
        }}
      />
    </Row>
  );
}
