/**
 * Visual e-mail builder: blocks from a palette, ordered by drag or arrows, edited in the side panel, with global
 * design settings and a live sandboxed preview. The result is saved as a template whose builder JSON keeps the
 * blocks, so /templates/builder?name=<name> opens them again.
 */
import {
  BuildOutlined,
  DesktopOutlined,
  EditOutlined,
  FileAddOutlined,
  LayoutOutlined,
  MobileOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Flex,
  Popconfirm,
  Result,
  Segmented,
  Space,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { type KeyboardEvent, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { PageSpinner } from '../../ui/PageSpinner';
import { CATEGORIES_KEY, currentCategoryQuery, TEMPLATES_KEY, type Template, templateQuery, templatesApi } from './api';
import { BlockList, type DragSource } from './builder/BlockList';
import { BLOCK_ICONS } from './builder/blockMeta';
import { DesignPanel } from './builder/DesignPanel';
import { generateEmailHtml } from './builder/generate';
import {
  BLOCK_TYPES,
  type Block,
  type BlockType,
  type BuilderDocument,
  type BuilderSettings,
  createBlock,
  emptyDocument,
  newId,
  readDocument,
} from './builder/model';
import { SaveModal } from './builder/SaveModal';
import { useHistory } from './builder/useHistory';
import { type Device, PreviewFrame } from './PreviewFrame';

const BUILDER_PATH = '/templates/builder';
const CHECK_DEBOUNCE_MS = 700;

function Palette({ onAdd, onDrag }: { onAdd: (type: BlockType) => void; onDrag: (drag: DragSource | null) => void }) {
  const { t } = useTranslation('templates');
  const { token } = theme.useToken();
  return (
    <div>
      <Typography.Text type="secondary" strong style={{ display: 'block', fontSize: 12, marginBottom: 8 }}>
        {t('builder.palette')}
      </Typography.Text>
      <div
        data-testid="builder-palette"
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(78px, 1fr))', gap: 8 }}
      >
        {BLOCK_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            draggable
            data-testid={`builder-palette-${type}`}
            title={t('builder.paletteHint')}
            onClick={() => onAdd(type)}
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'copy';
              event.dataTransfer.setData('text/plain', type);
              onDrag({ kind: 'new', type });
            }}
            onDragEnd={() => onDrag(null)}
            className="template-palette-item"
            style={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 6,
              padding: '10px 4px 8px',
              border: `1px solid ${token.colorBorderSecondary}`,
              borderRadius: token.borderRadiusLG,
              background: token.colorBgContainer,
              color: token.colorText,
              cursor: 'grab',
              font: 'inherit',
              fontSize: 12,
            }}
          >
            <span style={{ fontSize: 18, color: token.colorPrimary }}>{BLOCK_ICONS[type]}</span>
            {t(`builder.blocks.${type}`)}
          </button>
        ))}
      </div>
    </div>
  );
}

/** A first layout to change rather than start from nothing. */
function sampleBlocks(texts: { heading: string; text: string; button: string; footer: string }): Block[] {
  const defaults = { heading: texts.heading, text: texts.text, button: texts.button };
  const heading = createBlock('heading', defaults);
  const footer = createBlock('text', defaults);
  return [
    heading.type === 'heading' ? { ...heading, align: 'center' } : heading,
    createBlock('text', defaults),
    createBlock('button', defaults),
    createBlock('divider', defaults),
    footer.type === 'text' ? { ...footer, text: texts.footer, align: 'center' } : footer,
  ];
}

function isEditable(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function Workspace({
  template,
  defaultCategory,
  onSaved,
  onNew,
}: {
  template: Template | undefined;
  defaultCategory: number | null;
  onSaved: (name: string) => void;
  onNew: () => void;
}) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const history = useHistory<BuilderDocument>(() => (template ? readDocument(template.builder) : emptyDocument()));
  const doc = history.value;
  const [stored, setStored] = useState(template);
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(doc));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [tab, setTab] = useState('blocks');
  const [device, setDevice] = useState<Device>('desktop');
  const [drag, setDrag] = useState<DragSource | null>(null);
  const [saveOpen, setSaveOpen] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const checkSequence = useRef(0);
  const dirty = JSON.stringify(doc) !== savedJson;
  // Typing stays immediate; the preview follows a moment later on long e-mails.
  const deferred = useDeferredValue(doc);
  const subject = stored?.subject ?? '';
  const html = useMemo(() => generateEmailHtml(deferred, { title: subject }), [deferred, subject]);

  const texts = {
    heading: t('builder.defaults.heading'),
    text: t('builder.defaults.text'),
    button: t('builder.defaults.button'),
    footer: t('builder.defaults.footer'),
  };

  // Variables in the blocks are checked as in the editor: unknown ones and Liquid mistakes are listed.
  useEffect(() => {
    const current = ++checkSequence.current;
    const timer = window.setTimeout(() => {
      templatesApi.check({ channel: 'EMAIL', subject: '', html, text: '', smsText: '' }).then(
        (answer) => current === checkSequence.current && setProblems(answer.problems.map((problem) => problem.message)),
        // The save runs the same check and reports for real.
        () => undefined,
      );
    }, CHECK_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [html]);

  const setBlocks = (update: (blocks: Block[]) => Block[], joinKey?: string) =>
    history.set((current) => {
      const blocks = update(current.blocks);
      return blocks === current.blocks ? current : { ...current, blocks };
    }, joinKey);

  const insert = (type: BlockType, index?: number) => {
    const block = createBlock(type, texts);
    setBlocks((blocks) => {
      const selected = blocks.findIndex((entry) => entry.id === selectedId);
      const at = index ?? (selected === -1 ? blocks.length : selected + 1);
      return [...blocks.slice(0, at), block, ...blocks.slice(at)];
    });
    setSelectedId(block.id);
    setTab('blocks');
  };

  const move = (id: string, to: number) =>
    setBlocks((blocks) => {
      const from = blocks.findIndex((block) => block.id === id);
      const target = Math.max(0, Math.min(blocks.length - 1, to));
      if (from === -1 || from === target) return blocks;
      const rest = blocks.filter((block) => block.id !== id);
      return [...rest.slice(0, target), blocks[from] as Block, ...rest.slice(target)];
    });

  const duplicate = (id: string) => {
    const copyId = newId();
    setBlocks((blocks) => {
      const index = blocks.findIndex((block) => block.id === id);
      const original = blocks[index];
      if (!original) return blocks;
      const copy = { ...(JSON.parse(JSON.stringify(original)) as Block), id: copyId };
      return [...blocks.slice(0, index + 1), copy, ...blocks.slice(index + 1)];
    });
    setSelectedId(copyId);
  };

  const remove = (id: string) => {
    setBlocks((blocks) => blocks.filter((block) => block.id !== id));
    if (selectedId === id) setSelectedId(null);
  };

  const changeBlock = (id: string, patch: Partial<Block>, field: string) =>
    setBlocks((blocks) => blocks.map((block) => (block.id === id ? ({ ...block, ...patch } as Block) : block)), `${id}:${field}`);

  const changeSettings = (patch: Partial<BuilderSettings>, field: string) =>
    history.set((current) => ({ ...current, settings: { ...current.settings, ...patch } }), `settings:${field}`);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || isEditable(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      if (key === 'y' || event.shiftKey) history.redo();
      else history.undo();
    }
  };

  const saved = (result: Template) => {
    setStored(result);
    setSavedJson(JSON.stringify(doc));
    setSaveOpen(false);
    message.success(t(stored ? 'builder.save.updated' : 'builder.save.created', { name: result.name }));
    void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    void queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
    onSaved(result.name);
  };

  const newButton = (
    <Button icon={<FileAddOutlined />} data-testid="builder-new" onClick={dirty ? undefined : onNew}>
      {t('builder.new')}
    </Button>
  );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys are shortcuts for the buttons in the header
    <div onKeyDown={onKeyDown} data-testid="template-builder">
      <Card variant="borderless" styles={{ body: { paddingBottom: 16 } }} style={{ marginBottom: 16 }}>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <Flex align="center" gap={12} wrap>
            <BuildOutlined style={{ fontSize: 22, color: token.colorPrimary }} />
            <div>
              <Flex align="center" gap={8} wrap>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {t('builder.title')}
                </Typography.Title>
                <Tag data-testid="builder-template-name" color={stored ? 'blue' : undefined}>
                  {stored ? stored.name : t('builder.newDesign')}
                </Tag>
                {dirty && <Badge status="warning" text={t('builder.unsaved')} data-testid="builder-dirty" />}
              </Flex>
              <Typography.Text type="secondary">{t('builder.subtitle')}</Typography.Text>
            </div>
          </Flex>
          <Space wrap>
            <Space.Compact>
              <Tooltip title={t('builder.undo')}>
                <Button
                  icon={<UndoOutlined />}
                  aria-label={t('builder.undo')}
                  disabled={!history.canUndo}
                  onClick={history.undo}
                />
              </Tooltip>
              <Tooltip title={t('builder.redo')}>
                <Button
                  icon={<RedoOutlined />}
                  aria-label={t('builder.redo')}
                  disabled={!history.canRedo}
                  onClick={history.redo}
                />
              </Tooltip>
            </Space.Compact>
            {dirty ? (
              <Popconfirm
                title={t('builder.discardTitle')}
                description={t('builder.discardDescription')}
                okText={t('builder.discard')}
                cancelText={t('actions.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={onNew}
              >
                {newButton}
              </Popconfirm>
            ) : (
              newButton
            )}
            {stored && (
              <Tooltip title={dirty ? t('builder.editorUnsaved') : undefined}>
                <Button
                  icon={<EditOutlined />}
                  data-testid="builder-open-editor"
                  onClick={() => navigate(`/templates/edit/${encodeURIComponent(stored.name)}`)}
                >
                  {t('builder.openEditor')}
                </Button>
              </Tooltip>
            )}
            <Button type="primary" icon={<SaveOutlined />} data-testid="builder-save" onClick={() => setSaveOpen(true)}>
              {stored ? t('actions.save') : t('builder.saveAsTemplate')}
            </Button>
          </Space>
        </Flex>
      </Card>

      <Flex gap={16} align="start" wrap>
        <Card
          variant="borderless"
          style={{ flex: '1 1 360px', maxWidth: 440, minWidth: 0 }}
          styles={{ body: { paddingTop: 4 } }}
          data-testid="builder-panel"
        >
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={[
              {
                key: 'blocks',
                label: <span data-testid="builder-tab-blocks">{t('builder.tabs.blocks', { count: doc.blocks.length })}</span>,
                children: (
                  <Flex vertical gap={16}>
                    <Palette onAdd={(type) => insert(type)} onDrag={setDrag} />
                    <BlockList
                      blocks={doc.blocks}
                      selectedId={selectedId}
                      brandColor={doc.settings.brandColor}
                      drag={drag}
                      onDrag={setDrag}
                      onSelect={setSelectedId}
                      onChange={changeBlock}
                      onMove={move}
                      onInsert={insert}
                      onDuplicate={duplicate}
                      onRemove={remove}
                    />
                    {doc.blocks.length === 0 && (
                      <Button
                        icon={<LayoutOutlined />}
                        data-testid="builder-sample"
                        onClick={() => setBlocks(() => sampleBlocks(texts))}
                        style={{ alignSelf: 'center' }}
                      >
                        {t('builder.sample')}
                      </Button>
                    )}
                  </Flex>
                ),
              },
              {
                key: 'design',
                label: <span data-testid="builder-tab-design">{t('builder.tabs.design')}</span>,
                children: <DesignPanel settings={doc.settings} onChange={changeSettings} />,
              },
            ]}
          />
        </Card>

        <Card
          variant="borderless"
          style={{ flex: '999 1 480px', minWidth: 0, position: 'sticky', top: 16 }}
          styles={{ body: { background: token.colorFillQuaternary, borderRadius: token.borderRadiusLG } }}
        >
          <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('preview.title')}
            </Typography.Title>
            <Segmented<Device>
              size="small"
              value={device}
              onChange={setDevice}
              options={[
                {
                  value: 'desktop',
                  icon: <DesktopOutlined />,
                  label: <span data-testid="builder-preview-desktop">{t('preview.desktop')}</span>,
                },
                {
                  value: 'mobile',
                  icon: <MobileOutlined />,
                  label: <span data-testid="builder-preview-mobile">{t('preview.mobile')}</span>,
                },
              ]}
            />
          </Flex>
          {problems.length > 0 && (
            <Alert
              type="warning"
              showIcon
              data-testid="builder-problems"
              style={{ marginBottom: 12 }}
              title={t('builder.problems')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              }
            />
          )}
          <PreviewFrame html={html} device={device} title={t('preview.title')} height={640} testId="builder-preview-frame" />
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 10, fontSize: 12, textAlign: 'center' }}>
            {t('builder.previewNote')}
          </Typography.Text>
        </Card>
      </Flex>

      <SaveModal
        open={saveOpen}
        stored={stored}
        document={doc}
        html={(title) => generateEmailHtml(doc, { title })}
        defaultCategory={defaultCategory}
        onClose={() => setSaveOpen(false)}
        onSaved={saved}
      />
    </div>
  );
}

/** One opening of the builder: a new design, or the blocks of the named template. */
function BuilderSession({ name, onSaved, onNew }: { name: string; onSaved: (name: string) => void; onNew: () => void }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  // Fixed for the session: saving under a new name must not reload what is on screen.
  const [loadName] = useState(name);
  const template = useQuery({ ...templateQuery(loadName), enabled: loadName !== '' });
  const current = useQuery(currentCategoryQuery);

  if ((loadName && !template.data && template.isPending) || current.isPending) return <PageSpinner />;
  if (loadName && !template.data) {
    const missing = template.error instanceof ApiError && template.error.status === 404;
    return (
      <Card variant="borderless">
        <Result
          status={missing ? '404' : 'error'}
          title={missing ? t('editor.missing', { name: loadName }) : t('editor.loadFailed')}
          extra={<Button onClick={onNew}>{t('builder.startNew')}</Button>}
        />
      </Card>
    );
  }
  const data = template.data;
  if (data && (data.channel !== 'EMAIL' || data.builder === null || data.builder === undefined)) {
    return (
      <Card variant="borderless">
        <Result
          status="info"
          icon={<BuildOutlined />}
          data-testid="builder-not-built"
          title={t('builder.notBuilt.title', { name: data.name })}
          subTitle={t(data.channel === 'EMAIL' ? 'builder.notBuilt.description' : 'builder.notBuilt.sms')}
          extra={
            <Space wrap>
              <Button type="primary" onClick={() => navigate(`/templates/edit/${encodeURIComponent(data.name)}`)}>
                {t('builder.openEditor')}
              </Button>
              <Button onClick={onNew}>{t('builder.startNew')}</Button>
            </Space>
          }
        />
      </Card>
    );
  }
  return <Workspace template={data} defaultCategory={current.data?.categoryId ?? null} onSaved={onSaved} onNew={onNew} />;
}

export default function TemplateBuilder() {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A kept-alive tab sees the address bar of whichever screen is open, so only its own path may change the session.
  const requested = location.pathname === BUILDER_PATH ? (params.get('name') ?? '') : undefined;
  const [session, setSession] = useState(() => ({ name: params.get('name') ?? '', key: 0 }));
  // Compared with the last address seen, not the session: a save renames the session before the address follows.
  const [seen, setSeen] = useState(requested);
  if (requested !== undefined && requested !== seen) {
    setSeen(requested);
    if (requested !== session.name) setSession({ name: requested, key: session.key + 1 });
  }

  return (
    <BuilderSession
      key={session.key}
      name={session.name}
      onSaved={(name) => {
        setSession((previous) => ({ ...previous, name }));
        navigate(`${BUILDER_PATH}?name=${encodeURIComponent(name)}`, { replace: true });
      }}
      onNew={() => {
        setSession((previous) => ({ name: '', key: previous.key + 1 }));
        navigate(BUILDER_PATH);
      }}
    />
  );
}
