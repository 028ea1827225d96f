/**
 * Contact import: list and file → columns and mode → progress → report. The list and the import live in the
 * address (?list=, ?import=), so a reload, a bookmark or another tab reopens the import where it stands.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Spin, Steps } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ScreenHeader } from '../../../ui/ScreenHeader';
import { IMPORTS_KEY, importQuery, isFinished, LISTS_KEY, listQuery } from './api';
import { ImportMapping } from './ImportMapping';
import { ImportProgress } from './ImportProgress';
import { ImportReport } from './ImportReport';
import { ImportSource } from './ImportSource';

function idParam(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

export function ImportWizard() {
  const { t } = useTranslation('contacts');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const importId = idParam(params.get('import'));
  const details = useQuery({ ...importQuery(importId ?? 0), enabled: importId !== undefined });
  const listId = details.data?.listId ?? idParam(params.get('list'));
  const list = useQuery({ ...listQuery(listId ?? 0), enabled: listId !== undefined });
  // A finished import whose file is kept can be started again: its mapping step then shows instead of the report.
  const [restartOf, setRestartOf] = useState<number>();
  const status = details.data?.status;

  // Counts, states and histories change when an import ends, including one that ended while nobody watched.
  useEffect(() => {
    if (status && isFinished(status)) {
      void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
      void queryClient.invalidateQueries({ queryKey: [...IMPORTS_KEY, 'list'] });
    }
  }, [status, queryClient]);

  const chooseList = (id: number) => setParams({ list: String(id) }, { replace: true });
  const openImport = (id: number) => {
    setRestartOf(undefined);
    setParams(listId ? { list: String(listId), import: String(id) } : { import: String(id) });
  };
  const anotherFile = () => {
    setRestartOf(undefined);
    setParams(listId ? { list: String(listId) } : {});
  };

  const restarting = restartOf !== undefined && restartOf === importId && status !== undefined && isFinished(status);
  const step =
    importId === undefined || !details.data
      ? 0
      : details.data.status === 'pending' || restarting
        ? 1
        : details.data.status === 'running'
          ? 2
          : 3;

  let body: ReactNode;
  if (importId === undefined) {
    body = <ImportSource listId={listId} onList={chooseList} onUploaded={openImport} onOpenImport={openImport} />;
  } else if (details.isPending) {
    body = (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  } else if (!details.data) {
    body = (
      <Result
        status="warning"
        data-testid="import-missing"
        title={t('import.missing.title')}
        subTitle={details.error?.message}
        extra={
          <Button type="primary" onClick={anotherFile}>
            {t('import.missing.again')}
          </Button>
        }
      />
    );
  } else if (step === 1) {
    body = (
      <ImportMapping
        key={`${details.data.id}-${restartOf ?? ''}`}
        details={details.data}
        onStarted={() => setRestartOf(undefined)}
        onAnotherFile={anotherFile}
      />
    );
  } else if (step === 2) {
    body = <ImportProgress details={details.data} list={list.data} />;
  } else {
    body = (
      <ImportReport
        details={details.data}
        list={list.data}
        onRestart={() => setRestartOf(details.data.id)}
        onAnotherFile={anotherFile}
        onView={() => navigate(`/mass-mail/contacts/view/${details.data.listId}`)}
      />
    );
  }

  return (
    <Card variant="borderless" data-testid="contacts-import" data-step={step}>
      <ScreenHeader
        title={list.data ? t('import.titleInto', { name: list.data.name }) : t('import.title')}
        subtitle={t('import.subtitle')}
        marginBottom={24}
      >
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/mass-mail/contacts')}>
          {t('actions.allLists')}
        </Button>
      </ScreenHeader>
      <Steps
        current={step}
        status={step === 3 && status === 'failed' ? 'error' : undefined}
        style={{ marginBottom: 32 }}
        items={[
          { title: t('import.steps.source') },
          { title: t('import.steps.mapping') },
          { title: t('import.steps.progress') },
          { title: t('import.steps.report') },
        ]}
      />
      {body}
    </Card>
  );
}
