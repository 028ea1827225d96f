/** Providers for every page: antd theme, size and locale from the settings and language; the router. */
import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { antdLocale } from './i18n';
import { useSettings } from './layout/settings';
import { router } from './router';

/** The text defaults antd's App would set; App itself wraps only the private pages, so public ones get them here. */
function TextDefaults({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
      {children}
    </div>
  );
}

export function App() {
  // Subscribing re-renders the providers on a language switch, so antd's locale follows i18next.
  useTranslation();
  const settings = useSettings();
  return (
    <ConfigProvider locale={antdLocale()} componentSize={settings.size} theme={{ token: { colorPrimary: settings.themeColor } }}>
      <TextDefaults>
        <RouterProvider router={router} />
      </TextDefaults>
    </ConfigProvider>
  );
}
