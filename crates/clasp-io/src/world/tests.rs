//! Loading and saving worlds through files embedded in the test.

use std::path::Path;

use clasp_core::{BodyType, RobotId, World};
use nalgebra::{Point3, Vector3};

use super::{
    dof_stream::dof_stream,
    load::load_world,
    paths::{lexical, reference},
    save::motion_xml,
};
use crate::error::LoadError;
use crate::source::Embedded;

const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
const BODY: &str = "<root><geometryFile>tri.off</geometryFile></root>";

fn load(world: &'static str) -> Result<World, LoadError> {
    let files = Embedded::new([
        ("lib/models/objects/tri.xml", BODY),
        ("lib/models/objects/tri.off", TRIANGLE),
        ("scenes/w.xml", world),
    ]);
    load_world(&files, Path::new("scenes/w.xml"), Some(Path::new("lib")))
}

#[test]
fn reads_and_refuses_clasps_dynamics_settings() {
    let world = load(
        "<world><dynamics><gravity>0 -9810 0</gravity><timeStep>0.002</timeStep>\
         </dynamics></world>",
    )
    .unwrap();
    assert_eq!(world.gravity(), nalgebra::Vector3::new(0.0, -9810.0, 0.0));
    assert_eq!(world.time_step(), 0.002);
    let err = load("<world><dynamics>\n<timeStep>0</timeStep></dynamics></world>").unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().contains("time step"), "{err}");
    let err = load("<world><dynamics><gravity>0 nan 0</gravity></dynamics></world>");
    assert!(err.is_err());
}

#[test]
fn reads_and_writes_body_types_and_velocities() {
    let world = load(
        "<world><obstacle><filename>models/objects/tri.xml</filename>\
         <bodyType>kinematic</bodyType><velocity>1 2 3 0 0 0.5</velocity></obstacle>\
         <graspableBody><filename>models/objects/tri.xml</filename></graspableBody></world>",
    )
    .unwrap();
    let (_, pusher) = world.free_bodies().next().unwrap();
    assert_eq!(pusher.body_type(), BodyType::Kinematic);
    assert_eq!(pusher.velocity().linear, Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(
        motion_xml(pusher),
        "\t\t<bodyType>kinematic</bodyType>\n\t\t<velocity>1 2 3 0 0 0.5</velocity>\n"
    );
    let (_, graspable) = world.free_bodies().nth(1).unwrap();
    assert_eq!(graspable.body_type(), BodyType::Dynamic);
    assert_eq!(motion_xml(graspable), "", "defaults are not written");
    let err = load(
        "<world><obstacle><filename>models/objects/tri.xml</filename>\n\
         <bodyType>floating</bodyType></obstacle></world>",
    )
    .unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().contains("\"floating\""), "{err}");
    let err = load(
        "<world><obstacle><filename>models/objects/tri.xml</filename>\n\
         <velocity>1 0 0 0 0 0</velocity></obstacle></world>",
    )
    .unwrap_err();
    assert!(err.to_string().contains("static body cannot move"), "{err}");
    assert!(
        load(
            "<world><graspableBody><filename>models/objects/tri.xml</filename>\
         <velocity>1 0 nan 0 0 0</velocity></graspableBody></world>"
        )
        .is_err()
    );
}

#[test]
fn reads_the_camera_in_inventor_quaternion_order() {
    let world = load(
        "<world><camera><position>1 2 3</position><orientation>0 0 1 1</orientation>\
         <focalDistance>250</focalDistance></camera></world>",
    )
    .unwrap();
    let camera = world.camera.unwrap();
    assert_eq!(camera.position, Point3::new(1.0, 2.0, 3.0));
    assert!((camera.orientation.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    assert!((camera.orientation.axis().unwrap().z - 1.0).abs() < 1e-12);
    assert_eq!(camera.focal_distance, 250.0);
    let err = load("<world>\n<camera><position>1 2</position></camera></world>").unwrap_err();
    assert!(err.message.contains("needs 3 numbers"), "{err}");
}

#[test]
fn inline_bodies_find_their_geometry_under_the_root() {
    let world = load(
        "<world><obstacle><body><name>floor</name><mass>5</mass>\
         <geometryFile>tri.off</geometryFile></body></obstacle>\
         <graspableBody><body><geometryFile>tri.off</geometryFile></body></graspableBody></world>",
    );
    // Obstacles look in models/obstacles, which this library lacks.
    let err = world.unwrap_err();
    assert!(
        err.message
            .contains("lib/models/obstacles/tri.off, nor scenes/tri.off"),
        "{err}"
    );
    let world = load(
        "<world><graspableBody><body><name>floor</name><mass>5</mass>\
         <geometryFile>tri.off</geometryFile></body>\
         <transform><translation>0 0 7</translation></transform></graspableBody></world>",
    )
    .unwrap();
    let body = world.free_body(0).unwrap();
    assert_eq!((body.name.as_str(), body.mass.mass), ("floor", 5.0));
    assert_eq!(body.pose().translation.vector.z, 7.0);
    assert_eq!(body.source, None);
}

#[test]
fn connections_need_existing_robots_and_chains() {
    let err = load(
        "<world>\n<connection><parentRobot>0</parentRobot><parentChain>0</parentChain>\
         <childRobot>1</childRobot></connection></world>",
    )
    .unwrap_err();
    assert_eq!(err.line, Some(2));
    assert!(err.message.contains("the world has 0 robots"), "{err}");
    let err = load(
        "<world><connection><parentRobot>-1</parentRobot><parentChain>0</parentChain>\
         <childRobot>1</childRobot></connection></world>",
    )
    .unwrap_err();
    assert!(err.message.contains("not an index"), "{err}");
}

#[test]
fn missing_files_list_every_place_tried() {
    let err = load("<world>\n<graspableBody><filename>models/objects/cup.xml</filename></graspableBody></world>")
        .unwrap_err();
    assert_eq!(err.line, Some(2));
    assert!(
        err.message.contains(
            "tried lib/models/objects/cup.xml, scenes/models/objects/cup.xml, models/objects/cup.xml"
        ),
        "{err}"
    );
    let world = load(
        "<world><graspableBody><filename>models/objects/tri.xml</filename></graspableBody></world>",
    )
    .unwrap();
    assert_eq!(world.free_body(0).unwrap().name, "tri");
}

const HAND: &str = "<robot><palm>tri.xml</palm>\
    <dof type=\"b\"><defaultVelocity>1</defaultVelocity></dof>\
    <chain><joint type=\"Revolute\"><theta>d0</theta><d>0</d><a>10</a><alpha>0</alpha>\
    <minValue>0</minValue><maxValue>90</maxValue></joint>\
    <joint type=\"Revolute\"><theta>d0*0.5</theta><d>0</d><a>10</a><alpha>0</alpha>\
    <minValue>0</minValue><maxValue>90</maxValue></joint>\
    <link>tri.xml</link><link>tri.xml</link></chain></robot>";

#[test]
fn breakaway_dofs_read_and_write_one_state_per_joint() {
    let files = Embedded::new([
        ("hand/hand.xml", HAND),
        ("hand/iv/tri.xml", BODY),
        ("hand/iv/tri.off", TRIANGLE),
        // DOF 0 is 0.3; its first joint broke away at 0.25, its second did not.
        (
            "w.xml",
            "<world><robot><filename>hand/hand.xml</filename>\
             <dofValues>0.3 1 0.25 0</dofValues></robot></world>",
        ),
        (
            "short.xml",
            "<world><robot><filename>hand/hand.xml</filename>\
             <dofValues>0.3 1</dofValues></robot></world>",
        ),
    ]);
    let world = load_world(&files, Path::new("w.xml"), None).unwrap();
    let robot = world.robot(RobotId::from_index(0)).unwrap();
    assert_eq!(robot.dof_values(), &[0.3]);
    assert_eq!(robot.dof_joints(0), [(0, 0), (0, 1)]);
    assert_eq!(
        (robot.breakaway(0, 0), robot.breakaway(0, 1)),
        (Some(0.25), None)
    );
    assert_eq!(dof_stream(robot), "0.3 1 0.25 0");
    let err = load_world(&files, Path::new("short.xml"), None).unwrap_err();
    assert!(
        err.message
            .contains("ends before the breakaway value of DOF 0"),
        "{err}"
    );
}

#[test]
fn references_are_relative_to_the_root_else_to_the_world() {
    let (root, folder) = (Path::new("/g"), Path::new("/home/me/worlds"));
    assert_eq!(
        reference(Path::new("/g/models/objects/mug.xml"), folder, Some(root)),
        "models/objects/mug.xml"
    );
    assert_eq!(
        reference(Path::new("/home/me/objects/cup.xml"), folder, Some(root)),
        "../objects/cup.xml"
    );
    assert_eq!(
        reference(Path::new("/home/me/worlds/a/../cup.xml"), folder, None),
        "cup.xml"
    );
    assert_eq!(
        lexical(Path::new("a/b/../../../c/./d")),
        Path::new("../c/d")
    );
    assert_eq!(lexical(Path::new("/../x")), Path::new("/x"));
}
