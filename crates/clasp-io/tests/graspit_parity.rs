//! Clasp's reading of grasps beside GraspIt's own, recorded (issue 32). The worlds and
//! GraspIt's answers lie in `crates/clasp-bench/graspit/parity/`, made by `parity.sh` from
//! GraspIt built in a chroot (its `parity.cpp` plugin: GraspIt's contacts with every pair of the
//! hand and the object checked, and its quality dialog's epsilon and volume on the L1 wrench
//! space; six runs, since GraspIt's answers vary from run to run). Here Clasp reads each
//! world with GraspIt's contacts (threshold 0.2 mm, GraspIt's search order and its pruning)
//! and its contacts are matched to GraspIt's one to one: the same link, the points on the
//! object within 0.1 mm, the normals within 1°. docs/benchmarks.md ("GraspIt parity (issue 32)") says what the rest differ by.

use std::path::{Path, PathBuf};

use clasp_core::{RobotBody, World, WrenchSpaceKind};
use clasp_io::{Disk, load_world};
use nalgebra::Vector3;
use serde_json::Value;

const POINT_MM: f64 = 0.1;
const NORMAL_DEGREES: f64 = 1.0;

/// One contact seen from the object: which link of the hand (`None`: the palm), where, and
/// the normal into the object.
#[derive(Debug)]
struct Seen {
    link: Option<(usize, usize)>,
    point: Vector3<f64>,
    normal: Vector3<f64>,
}

fn record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clasp-bench/graspit/parity")
}

fn vector(value: &Value) -> Vector3<f64> {
    let v: Vec<f64> = value
        .as_array()
        .expect("a vector")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    Vector3::new(v[0], v[1], v[2])
}

/// "Barrett_chain1_link2" → chain 1, link 2; anything else is the palm.
fn link_named(name: &str) -> Option<(usize, usize)> {
    let (_, tail) = name.rsplit_once("_chain")?;
    let (chain, link) = tail.split_once("_link")?;
    Some((chain.parse().ok()?, link.parse().ok()?))
}

fn graspit_contacts(reading: &Value) -> Vec<Seen> {
    reading["contacts"]
        .as_array()
        .expect("contacts")
        .iter()
        .map(|c| Seen {
            link: link_named(c["link"].as_str().expect("a link's name")),
            point: vector(&c["object_point"]),
            normal: vector(&c["object_normal"]),
        })
        .collect()
}

/// The world read with GraspIt's contacts: its grasp's contacts and its epsilon (−1 where it is
/// not force-closure, as GraspIt says) and volume.
fn clasp_reading(world: &mut World) -> (Vec<Seen>, f64, f64) {
    world.set_graspit_contacts(true);
    let hand = world.current_hand().expect("a hand");
    let object = world.grasped_object().expect("an object");
    let grasp = world
        .grasp(hand, object, &world.settings().contact_options)
        .expect("a grasp");
    let quality = grasp
        .quality_with_volume(WrenchSpaceKind::L1)
        .expect("a quality");
    let seen = grasp
        .contacts
        .iter()
        .map(|c| Seen {
            link: match c.contact.other.robot_body() {
                Some(RobotBody::Link { chain, link }) => Some((chain, link)),
                _ => None,
            },
            point: c.contact.point.coords,
            normal: c.contact.inward().into_inner(),
        })
        .collect();
    let epsilon = if quality.force_closure {
        quality.epsilon.unwrap_or(0.0)
    } else {
        -1.0
    };
    (seen, epsilon, quality.volume.unwrap_or(0.0))
}

/// Whether the two sets pair one to one within the tolerances.
fn same_contacts(theirs: &[Seen], ours: &[Seen]) -> bool {
    let mut left: Vec<&Seen> = ours.iter().collect();
    for g in theirs {
        let nearest = left
            .iter()
            .enumerate()
            .filter(|(_, c)| c.link == g.link)
            .map(|(k, c)| (k, (c.point - g.point).norm()))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        match nearest {
            Some((k, d))
                if d <= POINT_MM
                    && left[k].normal.angle(&g.normal).to_degrees() <= NORMAL_DEGREES =>
            {
                left.remove(k);
            }
            _ => return false,
        }
    }
    left.is_empty()
}

/// On the 150 recorded grasps Clasp made (100 planned, 50 random; GraspIt's own worlds are
/// left to parity.py): the grasps whose contacts match one of GraspIt's runs, and of those the
/// grasps whose epsilon is within 1e-3 and volume within 1 % of that run's, are no fewer than
/// when the answers were recorded, and the contacts match in at least 95 % (issue 32's
/// target); wherever the Barrett's contacts (point contacts) match a run, so does the
/// epsilon. The quality of every matched grasp is not reached: docs/benchmarks.md ("GraspIt parity (issue 32)")
/// says what the others differ by.
#[test]
fn grasps_read_with_graspits_contacts_match_graspits_readings() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let root = temporary_root(&models);
    let text = std::fs::read_to_string(record().join("graspit.jsonl")).expect("the record");
    let mut runs: Vec<(String, Vec<Value>)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let reading: Value = serde_json::from_str(line).expect("a JSON line");
        let name = reading["file"].as_str().expect("a file name").to_owned();
        match runs.iter_mut().find(|(n, _)| *n == name) {
            Some((_, readings)) => readings.push(reading),
            None => runs.push((name, vec![reading])),
        }
    }
    let (mut compared, mut matched, mut same_quality) = (0, 0, 0);
    for (name, readings) in &runs {
        if readings[0].get("contacts").is_none() || name.starts_with("graspit-") {
            continue;
        }
        let path = record().join("worlds").join(name);
        let mut world = load_world(&Disk, &path, Some(&root)).expect("the world loads");
        let (ours, epsilon, volume) = clasp_reading(&mut world);
        compared += 1;
        let mut qualities = Vec::new();
        for reading in readings {
            if !same_contacts(&graspit_contacts(reading), &ours) {
                continue;
            }
            let (their_epsilon, their_volume) = (
                reading["epsilon"].as_f64().expect("epsilon"),
                reading["volume"].as_f64().expect("volume"),
            );
            let epsilon_matches = (epsilon - their_epsilon).abs() <= 1e-3;
            assert!(
                epsilon_matches || !name.contains("Barrett"),
                "{name}: epsilon {epsilon} where GraspIt has {their_epsilon}"
            );
            qualities.push(epsilon_matches && (volume - their_volume).abs() <= 0.01 * their_volume);
        }
        matched += usize::from(!qualities.is_empty());
        same_quality += usize::from(qualities.contains(&true));
    }
    println!("{compared} grasps: contacts match in {matched}, and the quality in {same_quality}");
    std::fs::remove_dir_all(&root).expect("the temporary folder goes");
    assert_eq!(compared, 150, "the record holds 150 grasps made by Clasp");
    assert!(
        matched >= RECORDED.0 && matched * 100 >= 95 * compared,
        "{matched} grasps' contacts match"
    );
    assert!(
        same_quality >= RECORDED.1,
        "{same_quality} grasps' qualities match"
    );
}

/// Of the 150 grasps, when the answers were recorded: those whose contacts matched one of
/// GraspIt's runs, and of those, those whose quality did.
const RECORDED: (usize, usize) = (147, 109);

/// A folder where world files' `models/` is GraspIt's library, as GraspIt's root has it.
fn temporary_root(models: &Path) -> PathBuf {
    let root = std::env::temp_dir().join(format!("clasp-parity-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("a temporary folder");
    let link = root.join("models");
    if !link.exists() {
        std::os::unix::fs::symlink(models, &link).expect("a link to the library");
    }
    root
}
