/** The delivery donut of one campaign; loaded on its own so ECharts only ships with the campaign view. */
import { MESSAGE_STATUSES } from '@herald/shared';
import { theme } from 'antd';
import { PieChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import { type ECharts, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatusCounts } from './api';
import { STATUS_COLORS } from './labels';

use([PieChart, TooltipComponent, LegendComponent, SVGRenderer]);

export default function DeliveryChart({ counts, total }: { counts: StatusCounts; total: number }) {
  const { t, i18n } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts>(undefined);
  // Every progress tick brings a new counts object; redrawing only on new numbers keeps the animation from restarting.
  const signature = JSON.stringify(counts);

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
    const number = new Intl.NumberFormat(i18n.language);
    const current = JSON.parse(signature) as StatusCounts;
    const data = MESSAGE_STATUSES.filter((status) => (current[status] ?? 0) > 0).map((status) => ({
      name: t(`statuses.${status}`),
      value: current[status] ?? 0,
      itemStyle: { color: STATUS_COLORS[status] },
    }));
    chart.current?.setOption({
      tooltip: { trigger: 'item', valueFormatter: (value: unknown) => number.format(Number(value)) },
      legend: {
        bottom: 0,
        type: 'scroll',
        icon: 'circle',
        itemWidth: 8,
        itemHeight: 8,
        textStyle: { color: token.colorTextSecondary, fontSize: 12 },
      },
      series: [
        {
          type: 'pie',
          radius: ['52%', '74%'],
          center: ['50%', '44%'],
          avoidLabelOverlap: true,
          padAngle: data.length > 1 ? 1 : 0,
          itemStyle: { borderRadius: 4 },
          label: { show: false },
          emphasis: { scale: true, scaleSize: 4 },
          labelLine: { show: false },
          data,
          animationDuration: 400,
        },
      ],
    });
  }, [signature, t, i18n.language, token]);

  return (
    <div style={{ position: 'relative' }}>
      <div ref={host} data-testid="campaign-chart" style={{ width: '100%', height: 300 }} />
      {/* The total sits in the donut's hole (centre at 44 % of the height, like the series). */}
      <div
        style={{
          position: 'absolute',
          insetInline: 0,
          top: '44%',
          transform: 'translateY(-50%)',
          textAlign: 'center',
          pointerEvents: 'none',
        }}
      >
        <div style={{ fontSize: 26, fontWeight: 600, lineHeight: 1.2, fontVariantNumeric: 'tabular-nums' }}>
          {new Intl.NumberFormat(i18n.language).format(total)}
        </div>
        <div style={{ fontSize: 12, color: token.colorTextSecondary }}>{t('view.chart.total', { count: total })}</div>
      </div>
    </div>
  );
}
