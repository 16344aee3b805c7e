/**
 * What a visitor typed or chose in a form before its island hydrated. The server's HTML is usable at
 * once, so a visitor on a slow phone may type before React takes the fields over, and React (with
 * react-hook-form, which writes its default values into the fields it registers) would erase it.
 * Read during the island's first render, before React touches the page, by field name: the fields
 * whose value differs from the one the server sent. The form puts them back once it has mounted.
 */
export type Typed = Record<string, string | boolean>;

export function typedBeforeHydration(formId: string): Typed {
  if (typeof document === 'undefined') return {};
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return {};
  const typed: Typed = {};
  for (const field of form.elements) {
    if (field instanceof HTMLInputElement && field.name) {
      if (field.type === 'checkbox' || field.type === 'radio') {
        if (field.checked !== field.defaultChecked) typed[field.name] = field.checked;
      } else if (field.type !== 'hidden' && field.value !== field.defaultValue) typed[field.name] = field.value;
    } else if (field instanceof HTMLTextAreaElement && field.name && field.value !== field.defaultValue) {
      typed[field.name] = field.value;
    } else if (field instanceof HTMLSelectElement && field.name) {
      // The server's choice: the option it marked selected, else the first the browser could select.
      const options = [...field.options];
      const sent = options.find((option) => option.defaultSelected) ?? options.find((option) => !option.disabled);
      if (field.value !== (sent?.value ?? '')) typed[field.name] = field.value;
    }
  }
  return typed;
}
