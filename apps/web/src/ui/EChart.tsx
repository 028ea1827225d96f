/**
 * The one ECharts wrapper: draws an option in SVG, follows its box's size, and redraws when given a new option
 * (callers memoise it on its numbers, so a refetch with the same figures does not restart the animation). Import it only from lazily loaded screens (or through React.lazy), so ECharts never lands in
 * the entry bundle.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type ECharts, type EChartsCoreOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { type CSSProperties, useEffect, useRef } from 'react';

use([PieChart, BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  testId?: string;
  height?: number;
  style?: CSSProperties;
  /** Replace the whole chart on a new option (series may go away) instead of animating from the last one. */
  notMerge?: boolean;
}

export default function EChart({ option, testId, height = 300, style, notMerge = false }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts>(undefined);

  useEffect(() => {
    if (!host.current) return;
    const instance = init(host.current, undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge });
  }, [option, notMerge]);

  return <div ref={host} data-testid={testId} style={{ width: '100%', height, ...style }} />;
}
