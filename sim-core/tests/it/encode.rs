//! The encoder is the exact inverse of the decoder (dxbc-format.md §2–§5):
//! for every `.dxbc` of the workloads (`../examples/*/`) and of the third-party
//! corpus (`../tests/corpus/*/`), decoding the SHEX/SHDR chunk and
//! encoding the result gives back the chunk's words exactly.

use std::path::{Path, PathBuf};

use sim_core::front::container::{ChecksumPolicy, Container};
use sim_core::front::decode::decode_program;
use sim_core::front::encode::{encode_program, write_container};

fn dxbc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../tests/corpus");
    assert!(
        corpus.is_dir(),
        "{} is missing: the corpus is part of the repository",
        corpus.display()
    );
    let mut files = Vec::new();
    for dir in [root.join("../examples"), corpus] {
        for sub in std::fs::read_dir(&dir).unwrap() {
            let sub = sub.unwrap().path();
            if !sub.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&sub).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "dxbc") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
}

fn shader_words(bytes: &[u8]) -> Vec<u32> {
    let c = Container::parse(bytes, ChecksumPolicy::Verify).unwrap();
    let data = c.shader_chunk().unwrap().data;
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // The chunk may be padded past the program; the length token bounds it.
    let len = (words[1] as usize).min(words.len());
    words[..len].to_vec()
}

#[test]
fn decode_then_encode_is_bit_exact() {
    let files = dxbc_files();
    assert!(
        files.len() > 100,
        "expected the corpus, found {} files",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let words = shader_words(&std::fs::read(f).unwrap());
        let decoded = decode_program(&words).unwrap();
        let encoded = encode_program(&decoded).unwrap();
        if encoded != words {
            let at = encoded
                .iter()
                .zip(&words)
                .position(|(a, b)| a != b)
                .unwrap_or(encoded.len().min(words.len()));
            let ins = decoded
                .instructions
                .iter()
                .rev()
                .find(|i| i.offset as usize <= at);
            failures.push(format!(
                "{}: first difference at dword {at}: ours {:08x?} theirs {:08x?} (instruction {:?} at {:?})",
                f.display(),
                encoded.get(at),
                words.get(at),
                ins.map(|i| i.opcode),
                ins.map(|i| i.offset),
            ));
        }
    }
    println!(
        "{} files, {} bit-exact",
        files.len(),
        files.len() - failures.len()
    );
    for l in &failures {
        println!("{l}");
    }
    assert!(failures.is_empty(), "{} files differ", failures.len());
}

/// `write_container` (dxbc-format.md §1): the file parses with the checksum
/// verified, holds RDEF (when given), empty ISGN/OSGN and SHEX, and decodes
/// to the same program.
#[test]
fn written_containers_verify_and_decode() {
    for f in dxbc_files() {
        let bytes = std::fs::read(&f).unwrap();
        let original = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let rdef = original.chunk(b"RDEF").map(|c| c.data);
        let words = shader_words(&bytes);
        for rdef in [rdef, None] {
            let out = write_container(&words, rdef);
            let c = Container::parse(&out, ChecksumPolicy::Verify)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let fourccs: Vec<&[u8; 4]> = c.chunks.iter().map(|c| &c.fourcc).collect();
            let mut want: Vec<&[u8; 4]> = vec![b"ISGN", b"OSGN", b"SHEX"];
            if rdef.is_some() {
                want.insert(0, b"RDEF");
            }
            assert_eq!(fourccs, want);
            assert_eq!(c.chunk(b"RDEF").map(|c| c.data), rdef);
            for sig in [b"ISGN", b"OSGN"] {
                assert_eq!(c.chunk(sig).unwrap().data, &[0, 0, 0, 0, 8, 0, 0, 0]);
            }
            let shex = c.shader_chunk().unwrap().data;
            let got: Vec<u32> = shex
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            assert_eq!(got, words, "{}", f.display());
            assert_eq!(
                decode_program(&got).unwrap(),
                decode_program(&words).unwrap()
            );
        }
    }
}
