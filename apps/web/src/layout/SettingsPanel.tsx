/** Settings drawer (spec sections 2 and 4): theme colour, tags view, fixed header, sidebar logo, size. */
import { DEFAULT_THEME_COLOR } from '@herald/shared';
import { Button, ColorPicker, Divider, Drawer, Flex, Segmented, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type InterfaceSize, resetSettings, updateSettings, useSettings } from './settings';

/** Antd's classic palette, the default first, so one click gives a colour that fits. */
const PRESET_COLORS = [DEFAULT_THEME_COLOR, '#13c2c2', '#52c41a', '#722ed1', '#eb2f96', '#fa541c', '#faad14', '#2f54eb'];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex justify="space-between" align="center" style={{ padding: '10px 0' }}>
      <Typography.Text>{label}</Typography.Text>
      {children}
    </Flex>
  );
}

export function SettingsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('layout');
  const settings = useSettings();
  const sizes: InterfaceSize[] = ['small', 'middle', 'large'];

  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={320} data-testid="settings-panel">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('settings.appearance')}
      </Typography.Title>
      <Row label={t('settings.themeColor')}>
        <ColorPicker
          value={settings.themeColor}
          disabledAlpha
          presets={[{ label: t('settings.presets'), colors: PRESET_COLORS }]}
          onChangeComplete={(color) => updateSettings({ themeColor: color.toHexString() })}
        >
          {/* A button, so the picker is reached by keyboard and named to screen readers. */}
          <Button
            data-testid="settings-theme-color"
            aria-label={t('settings.themeColor')}
            style={{ background: settings.themeColor, width: 32 }}
          />
        </ColorPicker>
      </Row>
      <Row label={t('settings.size')}>
        <Segmented<InterfaceSize>
          data-testid="settings-size"
          size="small"
          value={settings.size}
          onChange={(size) => updateSettings({ size })}
          options={sizes.map((size) => ({ value: size, label: t(`settings.sizes.${size}`) }))}
        />
      </Row>
      <Divider />
      <Typography.Title level={5}>{t('settings.layout')}</Typography.Title>
      <Row label={t('settings.tagsView')}>
        <Switch
          data-testid="settings-tags-view"
          checked={settings.tagsView}
          onChange={(tagsView) => updateSettings({ tagsView })}
        />
      </Row>
      <Row label={t('settings.fixedHeader')}>
        <Switch
          data-testid="settings-fixed-header"
          checked={settings.fixedHeader}
          onChange={(fixedHeader) => updateSettings({ fixedHeader })}
        />
      </Row>
      <Row label={t('settings.sidebarLogo')}>
        <Switch
          data-testid="settings-sidebar-logo"
          checked={settings.sidebarLogo}
          onChange={(sidebarLogo) => updateSettings({ sidebarLogo })}
        />
      </Row>
      <Divider />
      <Button block data-testid="settings-reset" onClick={resetSettings}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
