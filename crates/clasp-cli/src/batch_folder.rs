//! `batch DIR/`: the batch of every object of a folder (one mesh a file, or one folder per
//! object, as YCB and Objaverse ship them), each in its own units, with a progress bar. Each
//! object's candidates are drawn from its own seed, `seed × 1,000,003 + its place`, as Python's
//! `clasp.dataset` draws them, so the two give the same grasps. An object that does not load
//! is one line on stderr naming its file, and the rest go on.

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use crate::{
    batch::{BatchRequest, batch_of, load_hand, load_object},
    output::{Format, one_line},
};

/// The seed of the object at `place` in a folder: `clasp.dataset.object_seed`'s.
pub fn object_seed(seed: u64, place: usize) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(place as u64)
}

/// Batches every object of `request.object`, a folder; prints each object's batch as it
/// finishes (text, or with `--json` one JSON document a line, named by the object). Fails when
/// the folder cannot be read or any object failed, once the rest are done.
pub fn batch_folder(request: &BatchRequest, format: Format) -> ExitCode {
    let listed = match clasp_io::objects_in_folder(request.object) {
        Ok(listed) => listed,
        Err(error) => {
            eprintln!("{}", one_line(&error));
            return ExitCode::FAILURE;
        }
    };
    // The hand is read once, and each object grasped by a copy of it.
    let hand = match load_hand(request.hand) {
        Ok(hand) => hand,
        Err(failure) => {
            eprintln!("{failure}");
            return ExitCode::FAILURE;
        }
    };
    let bar = ProgressBar::new(listed.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} objects {wide_msg}") {
        bar.set_style(style);
    }
    let mut failed = false;
    let mut place = 0;
    for object in listed {
        let object = match object {
            Ok(object) => object,
            Err(error) => {
                failed = true;
                bar.println(one_line(&error));
                bar.inc(1);
                continue;
            }
        };
        bar.set_message(object.name.clone());
        let seed = object_seed(request.seed, place);
        place += 1;
        let one = BatchRequest {
            object: &object.file,
            seed,
            ..request.clone()
        };
        let batched = load_object(&object.file, request.reading, &|line| bar.println(line))
            .and_then(|(body, units)| batch_of(&one, body, units.as_ref(), hand.clone(), format));
        match batched {
            Ok(output) => {
                let output = named(&output, &object.name, format);
                bar.suspend(|| println!("{output}"));
            }
            Err(failure) => {
                failed = true;
                bar.println(failure);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    match failed {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}

/// An object's batch output headed by its name: its JSON with `"object_name"`, or its text
/// after a line naming it.
fn named(output: &str, name: &str, format: Format) -> String {
    match format {
        Format::Json => match serde_json::from_str::<Value>(output) {
            Ok(Value::Object(mut map)) => {
                map.insert("object_name".into(), Value::from(name));
                Value::Object(map).to_string()
            }
            _ => output.to_owned(),
        },
        Format::Text => format!("{name}:\n{output}"),
    }
}
