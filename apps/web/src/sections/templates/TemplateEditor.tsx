/** Template form, shared by create, edit/:name and copy/:name: the channel's parts, a live check, a preview and a test send. */
import {
  ArrowLeftOutlined,
  BuildOutlined,
  MailOutlined,
  MessageOutlined,
  SaveOutlined,
  SendOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Result,
  Row,
  Segmented,
  Select,
  Space,
  Tooltip,
  Typography,
  theme,
  Upload,
} from 'antd';
import { type ClipboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/http';
import { PageSpinner } from '../../ui/PageSpinner';
import { useUnsavedChanges } from '../../ui/useUnsavedChanges';
import { showSubmitError } from '../configs/formErrors';
import {
  CATEGORIES_KEY,
  categoriesQuery,
  currentCategoryQuery,
  megabytes,
  NAME_MAX,
  type Problem,
  type RenderData,
  TEMPLATE_MAX_BYTES,
  TEMPLATES_KEY,
  type Template,
  type TemplateBody,
  type TemplatePart,
  templateQuery,
  templatesApi,
  UPLOAD_MAX_BYTES,
  utf8Bytes,
} from './api';
import { CodeArea, revealPosition } from './CodeArea';
import { PreviewPane } from './PreviewPane';
import { ProblemList } from './ProblemList';
import { SmsCounter } from './SmsCounter';
import { TemplateNameField } from './TemplateNameField';
import { TestSendDrawer } from './TestSendDrawer';
import { insertSnippet, type Snippet } from './textInsert';
import { VariableMenu } from './VariableMenu';

export type TemplateEditorMode = 'create' | 'edit' | 'copy';

interface FormValues {
  name: string;
  channel: ChannelCategory;
  categoryId: number | null;
  subject: string;
  html: string;
  text: string;
  smsText: string;
}

const PARTS: readonly TemplatePart[] = ['subject', 'html', 'text', 'smsText'];
const CHECK_DEBOUNCE_MS = 500;

type FieldElement = HTMLTextAreaElement | HTMLInputElement | null;

function partsSize(values: Partial<FormValues>): number {
  return PARTS.reduce((sum, part) => sum + utf8Bytes(values[part] ?? ''), 0);
}

function initialValues(mode: TemplateEditorMode, template: Template | undefined, categoryId: number | null): FormValues {
  if (!template) return { name: '', channel: 'EMAIL', categoryId, subject: '', html: '', text: '', smsText: '' };
  return {
    name: mode === 'copy' ? `${template.name}_copy`.slice(0, NAME_MAX) : template.name,
    channel: template.channel,
    categoryId: template.categoryId,
    subject: template.subject,
    html: template.html,
    // A generated text part is left empty so it is generated again from the HTML as it is changed.
    text: template.textGenerated ? '' : template.text,
    smsText: template.smsText,
  };
}

function FieldHeader({
  htmlFor,
  label,
  required,
  actions,
}: {
  htmlFor: string;
  label: string;
  required?: boolean;
  actions?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
      <label htmlFor={htmlFor} style={{ fontWeight: 500 }}>
        {required && <span style={{ color: token.colorError, marginInlineEnd: 4 }}>*</span>}
        {label}
      </label>
      {actions && <Space size={6}>{actions}</Space>}
    </Flex>
  );
}

function EditorForm({
  mode,
  template,
  defaultCategory,
}: {
  mode: TemplateEditorMode;
  template?: Template;
  defaultCategory: number | null;
}) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const unsaved = useUnsavedChanges();
  const categories = useQuery(categoriesQuery);
  const [initial] = useState(() => initialValues(mode, template, defaultCategory));
  /** What is stored under the name being edited, as of the last load or save. */
  const [stored, setStored] = useState(template);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [tooLarge, setTooLarge] = useState(false);
  const [data, setData] = useState<RenderData>({});
  const [testOpen, setTestOpen] = useState(false);
  const elements = useRef<Partial<Record<TemplatePart, FieldElement>>>({});
  const checkSequence = useRef(0);

  const channel = Form.useWatch('channel', form) ?? initial.channel;
  const subject = Form.useWatch('subject', form) ?? initial.subject;
  const html = Form.useWatch('html', form) ?? initial.html;
  const text = Form.useWatch('text', form) ?? initial.text;
  const smsText = Form.useWatch('smsText', form) ?? initial.smsText;
  const parts = { channel, subject, html, text, smsText };
  const limit = megabytes(TEMPLATE_MAX_BYTES);
  const tooLargeText = t('errors:templates.tooLarge', { limit });
  const hasBuilder = stored !== undefined && stored.builder !== null && stored.builder !== undefined;
  const builderKept = hasBuilder && html === stored.html;
  const sourceName = template?.name ?? '';

  // The save-time check, run as the user types: syntax errors and unknown variables with their positions.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the part strings, `parts` is rebuilt per render
  useEffect(() => {
    const current = ++checkSequence.current;
    const timer = window.setTimeout(() => {
      const oversized = partsSize(parts) >= TEMPLATE_MAX_BYTES;
      setTooLarge(oversized);
      if (oversized) {
        setProblems([]);
        return;
      }
      templatesApi.check(parts).then(
        (answer) => current === checkSequence.current && setProblems(answer.problems),
        // A failed check leaves the last answer; saving runs the same check and reports for real.
        () => undefined,
      );
    }, CHECK_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [channel, subject, html, text, smsText]);

  const problemsOf = (part: TemplatePart) => problems.filter((problem) => problem.field === part);
  const errorLines = (part: TemplatePart) => [
    ...new Set(problemsOf(part).flatMap((problem) => (problem.line === null ? [] : [problem.line]))),
  ];
  const jump = (part: TemplatePart) => (line: number, column: number) => revealPosition(elements.current[part], line, column);

  const insertInto = (part: TemplatePart) => (snippet: Snippet) =>
    insertSnippet(elements.current[part], form.getFieldValue(part) ?? '', snippet, (next) => form.setFieldValue(part, next));

  const refuseTooLarge = (part: TemplatePart) => {
    form.setFields([{ name: part, errors: [tooLargeText] }]);
    message.error(tooLargeText);
  };

  /** A paste that would take the template to the limit is refused before it reaches the field. */
  const guardPaste = (part: TemplatePart) => (event: ClipboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    const target = event.currentTarget;
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? start;
    const replaced = utf8Bytes(target.value.slice(start, end));
    if (partsSize(form.getFieldsValue(true)) - replaced + utf8Bytes(pasted) >= TEMPLATE_MAX_BYTES) {
      event.preventDefault();
      refuseTooLarge(part);
    }
  };

  const upload = async (file: File) => {
    if (!/\.html?$/i.test(file.name)) {
      message.error(t('errors:upload.wrongFile'));
      return;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      message.error(t('errors:upload.tooLarge', { limit: megabytes(UPLOAD_MAX_BYTES) }));
      return;
    }
    setUploading(true);
    try {
      const answer = await templatesApi.uploadHtml(file);
      form.setFieldValue('html', answer.html);
      form.setFields([{ name: 'html', errors: [] }]);
      message.success(t('editor.uploaded', { file: answer.fileName, size: Math.max(1, Math.round(answer.size / 1024)) }));
    } catch (error) {
      message.error(error instanceof ApiError ? (error.fields?.[0]?.message ?? error.message) : String(error));
    } finally {
      setUploading(false);
    }
  };

  const save = async () => {
    let values: FormValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true);
    } catch {
      return;
    }
    if (partsSize(values) >= TEMPLATE_MAX_BYTES) {
      refuseTooLarge(values.channel === 'SMS' ? 'smsText' : 'html');
      return;
    }
    const body: TemplateBody = {
      name: values.name.trim(),
      channel: values.channel,
      categoryId: values.categoryId ?? null,
      subject: values.subject,
      html: values.html,
      text: values.text,
      smsText: values.smsText,
      // Blocks stay only while the HTML is still theirs; a hand edit detaches the template from the builder.
      ...(builderKept ? { builder: stored?.builder } : {}),
    };
    setSaving(true);
    try {
      const saved = mode === 'edit' ? await templatesApi.replace(sourceName, body) : await templatesApi.create(body);
      void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
      void queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
      unsaved.markSaved();
      message.success(t(mode === 'edit' ? 'editor.saved' : 'editor.created', { name: saved.name }));
      if (mode !== 'edit') navigate('/templates/list');
      else if (saved.name !== sourceName) navigate(`/templates/edit/${encodeURIComponent(saved.name)}`, { replace: true });
      else setStored(saved);
    } catch (error) {
      showSubmitError(form, error, (field) =>
        field === 'name' || field === 'newName'
          ? ['name']
          : // A part's own problem list already shows what the server found in it, with its position.
            (PARTS as readonly string[]).includes(field) && problemsOf(field as TemplatePart).length > 0
            ? undefined
            : (['channel', 'categoryId', ...PARTS] as string[]).includes(field)
              ? [field]
              : undefined,
      );
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode === 'create'
      ? t('create.title')
      : mode === 'edit'
        ? t('edit.title', { name: sourceName })
        : t('copy.title', { name: sourceName });

  const testButton = (
    <Tooltip title={mode === 'edit' ? t('testSend.savedVersion') : t('testSend.saveFirst')}>
      <Button icon={<SendOutlined />} data-testid="test-send-open" disabled={mode !== 'edit'} onClick={() => setTestOpen(true)}>
        {t('testSend.open')}
      </Button>
    </Tooltip>
  );

  return (
    <Card variant="borderless" data-testid="template-editor" data-mode={mode}>
      <Flex justify="space-between" align="start" gap={16} wrap style={{ marginBottom: 20 }}>
        <Flex gap={12} align="start">
          <Tooltip title={t('actions.allTemplates')}>
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label={t('actions.allTemplates')}
              onClick={() => navigate('/templates/list')}
            />
          </Tooltip>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{t(`${mode}.description`, { name: sourceName })}</Typography.Text>
          </div>
        </Flex>
        <Space wrap>
          {testButton}
          <Button type="primary" icon={<SaveOutlined />} loading={saving} data-testid="template-save" onClick={save}>
            {t(mode === 'edit' ? 'actions.save' : 'actions.createTemplate')}
          </Button>
        </Space>
      </Flex>

      <Row gutter={[32, 24]}>
        <Col xs={24} xl={13}>
          {hasBuilder && mode === 'edit' && (
            <Alert
              style={{ marginBottom: 16 }}
              type={builderKept ? 'info' : 'warning'}
              showIcon
              icon={<BuildOutlined />}
              data-testid="template-builder-note"
              title={builderKept ? t('editor.builder.made') : t('editor.builder.detached')}
              action={
                builderKept && (
                  <Button
                    size="small"
                    data-testid="template-open-builder"
                    onClick={() => navigate(`/templates/builder?name=${encodeURIComponent(sourceName)}`)}
                  >
                    {t('actions.editInBuilder')}
                  </Button>
                )
              }
            />
          )}
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={initial}
            onValuesChange={unsaved.markDirty}
            requiredMark
            data-testid="template-form"
            scrollToFirstError={{ block: 'center' }}
          >
            <Row gutter={16}>
              <Col flex="1 1 200px">
                <TemplateNameField testId="template-name" placeholder="welcome-email" />
              </Col>
              <Col flex="none">
                <Form.Item name="channel" label={t('editor.channel')}>
                  <Segmented<ChannelCategory>
                    data-testid="template-channel"
                    options={[
                      { value: 'EMAIL', label: t('channels.EMAIL'), icon: <MailOutlined /> },
                      { value: 'SMS', label: t('channels.SMS'), icon: <MessageOutlined /> },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Col flex="1 1 160px">
                <Form.Item name="categoryId" label={t('editor.category')}>
                  <Select
                    allowClear
                    data-testid="template-category"
                    placeholder={t('editor.noCategory')}
                    loading={categories.isPending}
                    options={(categories.data ?? []).map((category) => ({ value: category.id, label: category.name }))}
                    onClear={() => form.setFieldValue('categoryId', null)}
                  />
                </Form.Item>
              </Col>
            </Row>

            {tooLarge && (
              <Alert style={{ marginBottom: 16 }} type="error" showIcon data-testid="template-too-large" title={tooLargeText} />
            )}

            {channel === 'EMAIL' ? (
              <>
                <FieldHeader
                  htmlFor="template-subject"
                  label={t('editor.subject')}
                  required
                  actions={<VariableMenu onInsert={insertInto('subject')} />}
                />
                <Form.Item
                  name="subject"
                  rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
                  style={{ marginBottom: problemsOf('subject').length ? 4 : 24 }}
                >
                  <Input
                    id="template-subject"
                    data-testid="template-subject"
                    placeholder={t('editor.subjectPlaceholder')}
                    status={problemsOf('subject').length ? 'error' : undefined}
                    onPaste={guardPaste('subject')}
                    ref={(input) => {
                      elements.current.subject = input?.input ?? null;
                    }}
                  />
                </Form.Item>
                <ProblemList problems={problemsOf('subject')} onJump={jump('subject')} />

                <FieldHeader
                  htmlFor="template-html"
                  label={t('editor.html')}
                  required
                  actions={
                    <>
                      <VariableMenu onInsert={insertInto('html')} />
                      <span data-testid="template-upload">
                        <Upload
                          accept=".html,.htm"
                          showUploadList={false}
                          beforeUpload={(file) => {
                            void upload(file);
                            return false;
                          }}
                        >
                          <Button size="small" icon={<UploadOutlined />} loading={uploading}>
                            {t('editor.upload')}
                          </Button>
                        </Upload>
                      </span>
                    </>
                  }
                />
                <Form.Item
                  name="html"
                  rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
                  extra={t('editor.htmlHelp', { limit })}
                  style={{ marginBottom: 8 }}
                >
                  <CodeArea
                    id="template-html"
                    testId="template-html"
                    rows={16}
                    placeholder="<!DOCTYPE html>"
                    errorLines={errorLines('html')}
                    onPaste={guardPaste('html')}
                    textareaRef={(element) => {
                      elements.current.html = element;
                    }}
                  />
                </Form.Item>
                <ProblemList problems={problemsOf('html')} onJump={jump('html')} />

                <div style={{ height: 16 }} />
                <FieldHeader
                  htmlFor="template-text"
                  label={t('editor.text')}
                  actions={<VariableMenu onInsert={insertInto('text')} />}
                />
                <Form.Item name="text" style={{ marginBottom: 8 }}>
                  <CodeArea
                    id="template-text"
                    testId="template-text"
                    rows={6}
                    placeholder={t('editor.textPlaceholder')}
                    errorLines={errorLines('text')}
                    onPaste={guardPaste('text')}
                    textareaRef={(element) => {
                      elements.current.text = element;
                    }}
                  />
                </Form.Item>
                <ProblemList problems={problemsOf('text')} onJump={jump('text')} />
              </>
            ) : (
              <>
                <FieldHeader
                  htmlFor="template-sms"
                  label={t('editor.sms')}
                  required
                  actions={<VariableMenu onInsert={insertInto('smsText')} />}
                />
                <Form.Item
                  name="smsText"
                  rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
                  style={{ marginBottom: 0 }}
                >
                  <Input.TextArea
                    id="template-sms"
                    data-testid="template-sms"
                    autoSize={{ minRows: 5, maxRows: 14 }}
                    placeholder={t('editor.smsPlaceholder')}
                    status={problemsOf('smsText').length ? 'error' : undefined}
                    onPaste={guardPaste('smsText')}
                    ref={(area) => {
                      elements.current.smsText = area?.resizableTextArea?.textArea ?? null;
                    }}
                  />
                </Form.Item>
                <SmsCounter text={smsText} />
                <ProblemList problems={problemsOf('smsText')} onJump={jump('smsText')} />
              </>
            )}
          </Form>
        </Col>
        <Col xs={24} xl={11}>
          <div style={{ position: 'sticky', top: 16 }}>
            <PreviewPane source={parts} channel={channel} data={data} onDataChange={setData} />
          </div>
        </Col>
      </Row>

      {mode === 'edit' && (
        <TestSendDrawer
          open={testOpen}
          name={sourceName}
          channel={stored?.channel ?? channel}
          data={data}
          onClose={() => setTestOpen(false)}
        />
      )}
    </Card>
  );
}

export default function TemplateEditor({ mode }: { mode: TemplateEditorMode }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const { name = '' } = useParams();
  const template = useQuery({ ...templateQuery(name), enabled: mode !== 'create' });
  const current = useQuery({ ...currentCategoryQuery, enabled: mode === 'create' });

  if (mode === 'create' ? current.isPending : template.isPending) return <PageSpinner />;
  if (mode !== 'create' && !template.data) {
    const missing = template.error instanceof ApiError && template.error.status === 404;
    return (
      <Card variant="borderless">
        <Result
          status={missing ? '404' : 'error'}
          data-testid="template-missing"
          title={missing ? t('editor.missing', { name }) : t('editor.loadFailed')}
          subTitle={missing ? undefined : (template.error as Error | null)?.message}
          extra={<Button onClick={() => navigate('/templates/list')}>{t('actions.allTemplates')}</Button>}
        />
      </Card>
    );
  }
  return <EditorForm mode={mode} template={template.data} defaultCategory={current.data?.categoryId ?? null} />;
}
