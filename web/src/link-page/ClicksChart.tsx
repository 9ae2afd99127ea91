import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { VisuallyHidden } from '@mantine/core';

ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip);

/**
 * Clicks over time as bars, with the same numbers in a table for screen readers (a canvas says nothing to them).
 */
export function ClicksChart({ points, label }: { points: { label: string; clicks: number }[]; label: string }) {
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ position: 'relative', height: 260 }}>
        <Bar
          aria-label={label}
          role="img"
          data={{ labels: points.map((p) => p.label), datasets: [{ label: 'Clicks', data: points.map((p) => p.clicks), backgroundColor: '#4c6ef5', borderRadius: 3, maxBarThickness: 28 }] }}
          options={{
            maintainAspectRatio: false,
            animation: false,
            plugins: { tooltip: { intersect: false } },
            scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 } } },
          }}
        />
      </div>
      <VisuallyHidden>
        <table>
          <caption>{label}</caption>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td>{p.clicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
