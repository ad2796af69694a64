/** Text from the schemas and docs, where `backticks` mark code. */
export function Prose(props: { text: string | undefined }) {
  const parts = (props.text ?? "").split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}
