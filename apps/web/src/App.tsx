/** Providers: antd theme, size and locale from the settings and language; antd App; TanStack Query; the router. */
import type { Language } from '@herald/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, type ConfigProviderProps } from 'antd';
import enUS from 'antd/es/locale/en_US';
import ruRU from 'antd/es/locale/ru_RU';
import ukUA from 'antd/es/locale/uk_UA';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setErrorPresenter } from './api/http';
import { currentLanguage } from './i18n';
import { useSettings } from './layout/settings';
import { router } from './router';

const ANTD_LOCALES: Record<Language, ConfigProviderProps['locale']> = { ru: ruRU, en: enUS, uk: ukUA };

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Lets the HTTP client's messages and dialogs use antd's App context, so they follow the theme and locale. */
function ErrorPresenterBinding() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => setErrorPresenter({ message, notification, modal }), [message, notification, modal]);
  return null;
}

export function App() {
  // Subscribing re-renders the providers on a language switch, so antd's locale follows i18next.
  useTranslation();
  const settings = useSettings();
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[currentLanguage()]}
      componentSize={settings.size}
      theme={{ token: { colorPrimary: settings.themeColor } }}
    >
      <AntApp>
        <ErrorPresenterBinding />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
