/** EChart behind React.lazy, for screens that should paint before ECharts arrives (the dashboard, reports). */
import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { EChartProps } from './EChart';

const EChart = lazy(() => import('./EChart'));

export function LazyChart(props: EChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 300 }} />}>
      <EChart {...props} />
    </Suspense>
  );
}
