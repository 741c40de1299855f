"use client";

/** A filter select that applies itself: choosing an option submits its (GET) form, so the URL follows at once. */
export function SubmitOnChange({
  name,
  testId,
  value,
  className,
  options,
}: {
  name: string;
  testId: string;
  value: string;
  className: string;
  options: { value: string; label: string }[];
}) {
  return (
    <select
      name={name}
      data-testid={testId}
      defaultValue={value}
      className={className}
      onChange={(e) => e.currentTarget.form?.requestSubmit()}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
