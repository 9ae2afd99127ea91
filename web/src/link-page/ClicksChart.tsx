import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { useComputedColorScheme, VisuallyHidden } from '@mantine/core';

ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip);

/**
 * Clicks over time as bars, with the same numbers in a table for screen readers (a canvas says nothing to them).
 */
export function ClicksChart({ points, label }: { points: { label: string; clicks: number }[]; label: string }) {
  // Chart.js draws on a canvas with its own grey: the axis text and grid follow the page's scheme instead.
  const dark = useComputedColorScheme('light') === 'dark';
  const text = dark ? '#c9c9c9' : '#495057';
  const grid = dark ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.08)';
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ position: 'relative', height: 260 }}>
        <Bar
          aria-label={label}
          role="img"
          data={{ labels: points.map((p) => p.label), datasets: [{ label: 'Clicks', data: points.map((p) => p.clicks), backgroundColor: dark ? '#748ffc' : '#4263eb', borderRadius: 3, maxBarThickness: 28 }] }}
          options={{
            maintainAspectRatio: false,
            animation: false,
            plugins: { tooltip: { intersect: false } },
            scales: {
              y: { beginAtZero: true, ticks: { precision: 0, color: text }, grid: { color: grid } },
              x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8, color: text }, grid: { color: grid } },
            },
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
