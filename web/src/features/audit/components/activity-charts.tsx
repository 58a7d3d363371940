import type { DailyActivity } from '@tv-shop/contracts';
import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The overview's charts (recharts, loaded on its own when the admin's home first shows them,
 * so no other page downloads it): the day's counts, and the day's takings in TK.
 */
const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));
const tk = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

const series = [
  { key: 'listings', name: 'Listings', colour: '#0f766e' },
  { key: 'bookings', name: 'Bookings', colour: '#2563eb' },
  { key: 'payments', name: 'Payments', colour: '#16a34a' },
  { key: 'reports', name: 'Reports', colour: '#ea580c' },
] as const;

const chartStyle = { width: '100%', height: 240 };

export default function ActivityCharts({ days }: { days: DailyActivity[] }) {
  const data = days.map((d) => ({ ...d, label: shortDay(d.day), paidTk: d.paidPoisha / 100 }));
  return (
    <div className="activity-charts">
      <figure className="activity-chart" aria-labelledby="activity-chart-counts">
        <figcaption id="activity-chart-counts">Listings, bookings, payments and reports per day (last 30 days, UTC)</figcaption>
        <LineChart responsive style={chartStyle} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -24 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Line
              key={s.key}
              type="monotone"
              dataKey={s.key}
              name={s.name}
              stroke={s.colour}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </figure>
      <figure className="activity-chart" aria-labelledby="activity-chart-paid">
        <figcaption id="activity-chart-paid">Paid per day, in TK</figcaption>
        <AreaChart responsive style={chartStyle} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis tick={{ fontSize: 11 }} tickFormatter={(v: number) => tk.format(v)} width={56} />
          <Tooltip formatter={(v) => `${tk.format(Number(v))} TK`} />
          <Area type="monotone" dataKey="paidTk" name="Paid" stroke="#16a34a" fill="#bbf7d0" isAnimationActive={false} />
        </AreaChart>
      </figure>
    </div>
  );
}
