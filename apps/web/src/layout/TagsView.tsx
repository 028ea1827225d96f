/** The tabs strip: one tab per visited screen, with refresh, close, close others and close all. */
import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Space, Tabs, Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageTitles } from '../router/pageTitle';
import { isAffixed, tabTitle, type VisitedView, type VisitedViews } from './useVisitedViews';

export function TagsView({ tabs, currentPath }: { tabs: VisitedViews; currentPath?: string }) {
  const { t } = useTranslation('layout');
  const titles = usePageTitles();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const active = tabs.views.find((view) => view.path === currentPath);

  function contextMenu(view: VisitedView): MenuProps {
    return {
      items: [
        { key: 'refresh', icon: <ReloadOutlined />, label: <span data-testid="tab-menu-refresh">{t('tabs.refresh')}</span> },
        {
          key: 'close',
          icon: <CloseOutlined />,
          disabled: isAffixed(view),
          label: <span data-testid="tab-menu-close">{t('tabs.close')}</span>,
        },
        {
          key: 'others',
          icon: <ColumnWidthOutlined />,
          label: <span data-testid="tab-menu-close-others">{t('tabs.closeOthers')}</span>,
        },
        { key: 'all', icon: <CloseCircleOutlined />, label: <span data-testid="tab-menu-close-all">{t('tabs.closeAll')}</span> },
      ],
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation();
        if (key === 'refresh') {
          tabs.refresh(view.path);
          if (view.path !== currentPath) navigate(view.href);
        } else if (key === 'close') tabs.close(view.path);
        else if (key === 'others') tabs.closeOthers(view.path);
        else tabs.closeAll();
      },
    };
  }

  const actions = (
    <Space size={0} style={{ paddingInline: 8 }}>
      <Tooltip title={t('tabs.refresh')}>
        <Button
          type="text"
          size="small"
          data-testid="tab-refresh"
          aria-label={t('tabs.refresh')}
          icon={<ReloadOutlined />}
          disabled={!active}
          onClick={() => active && tabs.refresh(active.path)}
        />
      </Tooltip>
      <Tooltip title={t('tabs.closeOthers')}>
        <Button
          type="text"
          size="small"
          data-testid="tabs-close-others"
          aria-label={t('tabs.closeOthers')}
          icon={<ColumnWidthOutlined />}
          disabled={!active}
          onClick={() => active && tabs.closeOthers(active.path)}
        />
      </Tooltip>
      <Tooltip title={t('tabs.closeAll')}>
        <Button
          type="text"
          size="small"
          data-testid="tabs-close-all"
          aria-label={t('tabs.closeAll')}
          icon={<CloseCircleOutlined />}
          onClick={tabs.closeAll}
        />
      </Tooltip>
    </Space>
  );

  return (
    <div
      data-testid="tags-view"
      style={{
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        paddingInlineStart: 8,
      }}
    >
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={active?.path ?? ''}
        onChange={(path) => {
          const view = tabs.views.find((item) => item.path === path);
          if (view) navigate(view.href);
        }}
        onEdit={(path, action) => {
          if (action === 'remove' && typeof path === 'string') tabs.close(path);
        }}
        tabBarExtraContent={{ right: actions }}
        tabBarStyle={{ margin: 0 }}
        items={tabs.views.map((view) => ({
          key: view.path,
          closable: !isAffixed(view),
          closeIcon: <CloseOutlined data-testid="tab-close" aria-label={t('tabs.close')} />,
          label: (
            <Dropdown trigger={['contextMenu']} menu={contextMenu(view)}>
              <span data-testid={`tab-${view.path}`}>{tabTitle(view, t, titles.get(view.path))}</span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
