/** The delivery donut of one campaign; loaded on its own so ECharts only ships with the campaign view. */
import { MESSAGE_STATUSES } from '@herald/shared';
import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import EChart from '../../../ui/EChart';
import type { StatusCounts } from './api';
import { STATUS_COLORS } from './labels';

export default function DeliveryChart({ counts, total }: { counts: StatusCounts; total: number }) {
  const { t, i18n } = useTranslation('campaigns');
  const { token } = theme.useToken();
  // Every progress tick brings a new counts object; redrawing only on new numbers keeps the animation from restarting.
  const signature = JSON.stringify(counts);

  const option = useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const current = JSON.parse(signature) as StatusCounts;
    const data = MESSAGE_STATUSES.filter((status) => (current[status] ?? 0) > 0).map((status) => ({
      name: t(`statuses.${status}`),
      value: current[status] ?? 0,
      itemStyle: { color: STATUS_COLORS[status] },
    }));
    return {
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
    };
  }, [signature, t, i18n.language, token]);

  return (
    <div style={{ position: 'relative' }}>
      <EChart option={option} testId="campaign-chart" />
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
