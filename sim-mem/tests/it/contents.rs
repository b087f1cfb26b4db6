//! A buffer's contents copied and put back (`Buffer::contents`,
//! `Buffer::restore`): what two-pass checking and schedule exploration run
//! a dispatch again from.

use sim_mem::sync::Ordering;
use sim_mem::Buffer;

#[test]
fn restore_puts_back_the_words_and_the_hidden_counter() {
    let b = Buffer::from_words(&[1, 2, 3, 4]);
    b.counter().store(7, Ordering::Relaxed);
    let saved = b.contents();
    assert_eq!(
        (saved.words.as_slice(), saved.counter),
        (&[1, 2, 3, 4][..], 7)
    );
    b.write_words(1, &[20, 30]).unwrap();
    b.counter().store(9, Ordering::Relaxed);
    b.restore(&saved);
    assert_eq!(b.to_words(), [1, 2, 3, 4]);
    assert_eq!(b.counter().load(Ordering::Relaxed), 7);
    // another buffer's copy: as many words as both have
    let small = Buffer::from_words(&[5, 6]);
    small.restore(&saved);
    assert_eq!(small.to_words(), [1, 2]);
}
