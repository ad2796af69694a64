/**
 * Small charts drawn on the server as SVG: no script, nothing from elsewhere. Each says what it
 * shows in words too (its `aria-label`, and the numbers printed beside it), so a screen reader
 * and a reader in a hurry get the same as the picture.
 */

const WIDTH = 300;

/** One bar per day, scaled to the busiest; the first and last dates under the axis. */
export function DailyBars(props: { days: { day: string; proofs: number }[]; label: string }) {
  const { days } = props;
  const height = 80;
  const most = Math.max(1, ...days.map((day) => day.proofs));
  const slot = WIDTH / Math.max(1, days.length);
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${height + 16}`} role="img" aria-label={props.label}>
      {days.map((day, i) => {
        const barHeight = day.proofs === 0 ? 0 : Math.max(2, (day.proofs / most) * height);
        return (
          <rect
            class="bar"
            x={(i * slot + 1).toFixed(1)}
            y={(height - barHeight).toFixed(1)}
            width={(slot - 2).toFixed(1)}
            height={barHeight.toFixed(1)}
          >
            <title>{`${day.day}: ${day.proofs}`}</title>
          </rect>
        );
      })}
      <line class="axis" x1="0" y1={height + 0.5} x2={WIDTH} y2={height + 0.5} />
      <text class="tick" x="0" y={height + 13}>
        {days[0]?.day.slice(5) ?? ""}
      </text>
      <text class="tick" x={WIDTH} y={height + 13} text-anchor="end">
        {days.at(-1)?.day.slice(5) ?? ""}
      </text>
    </svg>
  );
}

/** A part of a whole as one bar: the counted share filled. */
export function ShareBar(props: { part: number; whole: number; label: string }) {
  const share = props.whole === 0 ? 0 : props.part / props.whole;
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} 20`} role="img" aria-label={props.label}>
      <rect class="track" x="0" y="0" width={WIDTH} height="20" rx="4" />
      <rect class="bar" x="0" y="0" width={(share * WIDTH).toFixed(1)} height="20" rx="4" />
    </svg>
  );
}

/** One horizontal bar per kind, scaled to the largest, with its name and count. */
export function LabelledBars(props: { rows: { name: string; value: number }[]; label: string }) {
  const most = Math.max(1, ...props.rows.map((row) => row.value));
  const rowHeight = 22;
  const labelWidth = 110;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${Math.max(1, props.rows.length) * rowHeight}`}
      role="img"
      aria-label={props.label}
    >
      {props.rows.map((row, i) => (
        <g>
          <text class="tick" x="0" y={i * rowHeight + 15}>
            {row.name}
          </text>
          <rect
            class="bar"
            x={labelWidth}
            y={i * rowHeight + 4}
            width={(((WIDTH - labelWidth - 40) * row.value) / most).toFixed(1)}
            height={rowHeight - 8}
            rx="2"
          />
          <text class="tick" x={WIDTH} y={i * rowHeight + 15} text-anchor="end">
            {String(row.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}
