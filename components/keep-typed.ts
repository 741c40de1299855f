import type { FormEvent } from "react";

/**
 * A form's submit handler that keeps what was typed when the server refuses it: React's form `action` resets
 * every field after it runs, whatever the answer. `submit` says whether it succeeded; only then is the form cleared.
 */
export function keepTyped(submit: (data: FormData) => Promise<boolean>, clearOnSuccess = true) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    void submit(new FormData(form)).then((ok) => {
      if (ok && clearOnSuccess) form.reset();
    });
  };
}
