//! Input echoed in messages, clipped: an error names what it was given (a
//! resource name, a field's path, a format's name, a file), but a name of
//! 16 MiB is not printed whole. [`clip`] keeps the first
//! [`ECHO_LIMIT`] characters of such a string and says how many bytes
//! it left out: `'xxxx…(16777096 more bytes)'`.

use std::borrow::Cow;

/// The most characters of one echoed string an error message shows.
pub const ECHO_LIMIT: usize = 120;

/// The most characters of a message's free text ([`super::ApiError`]'s
/// `message` fields and lists), a backstop for an echo inside it.
pub(crate) const MESSAGE_LIMIT: usize = 16 * 1024;

/// `s` as an error message echoes it: whole up to [`ECHO_LIMIT`]
/// characters, else its first [`ECHO_LIMIT`] characters and
/// `…(N more bytes)`.
///
/// ```
/// use sm5sim::api::clip;
/// assert_eq!(clip("keys"), "keys");
/// let long = "k".repeat(1000);
/// assert_eq!(clip(&long), format!("{}…(880 more bytes)", "k".repeat(120)));
/// ```
pub fn clip(s: &str) -> Cow<'_, str> {
    clip_to(s, ECHO_LIMIT)
}

/// [`clip`] at [`MESSAGE_LIMIT`] characters.
pub(crate) fn clip_message(s: &str) -> Cow<'_, str> {
    clip_to(s, MESSAGE_LIMIT)
}

/// `s` whole up to `limit` characters, else its first `limit` characters
/// and `…(N more bytes)`.
pub fn clip_to(s: &str, limit: usize) -> Cow<'_, str> {
    match s.char_indices().nth(limit) {
        None => Cow::Borrowed(s),
        Some((at, _)) => Cow::Owned(format!("{}…({} more bytes)", &s[..at], s.len() - at)),
    }
}

/// An error and its causes as one message, `outer: cause: root cause`,
/// each cause once: a cause whose text an outer message already contains
/// (an error that prints its source, as `JobError::Shader` prints its
/// `LoadError`) is not repeated. What the command line prints after
/// `error:`, and the Python module's job errors.
pub fn error_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = String::new();
    for cause in std::iter::successors(Some(e), |c| c.source()) {
        let m = cause.to_string();
        if text.contains(&m) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&m);
    }
    text
}
