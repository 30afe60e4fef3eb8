import { inputClasses } from "../ui/field.tsx";

/** The search box of a picker (books, schools) and its label, shown or for screen readers only. */
export function PickerSearch({
  id,
  label,
  labelHidden = false,
  placeholder,
  width,
  value,
  onChange,
}: {
  id: string;
  label: string;
  labelHidden?: boolean;
  placeholder: string;
  /** The box's max-width class. */
  width: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id} className={labelHidden ? "sr-only" : "text-sm font-medium"}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        placeholder={placeholder}
        className={`${inputClasses} ${width}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}
