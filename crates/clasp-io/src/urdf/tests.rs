use std::path::Path;

use clasp_core::{Body, Robot};
use nalgebra::Point3;

use super::load_urdf;
use crate::{
    error::LoadError,
    primitives::{self, primitive_mesh},
    source::Embedded,
};

const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n10 0 0\n0 10 0\n3 0 1 2\n";

/// A parallel gripper on an empty mounting link: prismatic fingers, the right one mimics.
const GRIPPER: &str = r#"<?xml version="1.0"?>
<robot name="gripper">
  <link name="base"/>
  <joint name="mount" type="fixed">
    <parent link="base"/><child link="palm"/><origin xyz="0 0 0.01"/>
  </joint>
  <link name="palm">
    <visual><geometry><sphere radius="1"/></geometry></visual>
    <collision><geometry><box size="0.04 0.02 0.01"/></geometry></collision>
  </link>
  <joint name="left" type="prismatic">
    <parent link="palm"/><child link="left_finger"/>
    <origin xyz="0.01 0 0.005"/><axis xyz="1 0 0"/><limit lower="0" upper="0.02"/>
  </joint>
  <link name="left_finger">
    <visual><origin xyz="0 0 0.01"/>
      <geometry><mesh filename="package://parts/meshes/tri.off" scale="0.001 0.001 0.001"/></geometry>
    </visual>
  </link>
  <joint name="right" type="prismatic">
    <parent link="palm"/><child link="right_finger"/>
    <origin xyz="-0.01 0 0.005"/><axis xyz="-1 0 0"/><limit lower="0" upper="0.02"/>
    <mimic joint="left"/>
  </joint>
  <link name="right_finger">
    <collision><geometry><mesh filename="../meshes/tri.off" scale="0.001 0.001 0.001"/></geometry></collision>
  </link>
</robot>
"#;

fn load(urdf: &'static str) -> Result<Robot, LoadError> {
    let files = Embedded::new([
        ("ws/parts/urdf/robot.urdf", urdf),
        ("ws/parts/meshes/tri.off", TRIANGLE),
    ]);
    load_urdf(&files, Path::new("ws/parts/urdf/robot.urdf"))
}

fn origin_of(body: &Body) -> Point3<f64> {
    body.pose() * Point3::origin()
}

fn assert_at(got: Point3<f64>, want: [f64; 3]) {
    assert!(
        (got - Point3::from(want)).norm() < 1e-9,
        "got {got}, want {want:?}"
    );
}

#[test]
fn a_gripper_folds_fixed_joints_into_the_palm_and_mimics_a_finger() {
    let mut robot = load(GRIPPER).unwrap();
    assert_eq!(robot.name, "gripper");
    assert_eq!((robot.dofs.len(), robot.chains().len()), (1, 2));
    assert_eq!(robot.palm().name, "base");
    // The collision box, not the visual sphere, lifted 10 mm by the fixed joint.
    assert_eq!(robot.palm().mesh().triangles().len(), 12);
    let (lo, hi) = robot.palm().mesh().bounding_box();
    assert_at(lo, [-20.0, -10.0, 5.0]);
    assert_at(hi, [20.0, 10.0, 15.0]);
    assert_eq!(robot.dof_limits(0), (0.0, 20.0));
    robot.set_dof_values(&[10.0]).unwrap();
    let (left, right) = (
        &robot.chains()[0].links[0].body,
        &robot.chains()[1].links[0].body,
    );
    assert_eq!(
        (left.name.as_str(), right.name.as_str()),
        ("left_finger", "right_finger")
    );
    assert_at(origin_of(left), [20.0, 0.0, 15.0]);
    assert_at(origin_of(right), [-20.0, 0.0, 15.0]);
    // The visual origin lifts the left finger's mesh 10 mm; the mesh scale makes mm of mm.
    assert_at(left.mesh().vertices()[1], [10.0, 0.0, 10.0]);
    assert_at(right.mesh().vertices()[1], [10.0, 0.0, 0.0]);
}

/// A link drawn otherwise than it collides keeps its visual mesh to be drawn (the palm: a
/// sphere over its collision box); one with only visual geometry collides with it and has no
/// separate look (the left finger), nor one with only collision geometry (the right).
#[test]
fn a_link_whose_visual_differs_from_its_collision_keeps_both() {
    let robot = load(GRIPPER).unwrap();
    let palm = robot.palm();
    let visual = palm.visual.as_ref().expect("the palm's visual sphere");
    assert_eq!(palm.mesh().triangles().len(), 12);
    assert!(!std::ptr::eq(palm.shown_mesh(), palm.mesh()));
    assert_eq!(
        palm.shown_mesh().triangles().len(),
        visual.triangles().len()
    );
    // The sphere of 1 m radius, lifted 10 mm by the fixed joint as the box is.
    let (lo, hi) = visual.bounding_box();
    assert!(((lo.z + hi.z) / 2.0 - 10.0).abs() < 1e-6, "{lo} {hi}");
    assert!((1900.0..=2000.0).contains(&(hi.x - lo.x)), "{lo} {hi}");
    for finger in robot.chains() {
        let body = &finger.links[0].body;
        assert!(body.visual.is_none(), "{}", body.name);
        assert!(std::ptr::eq(body.shown_mesh(), body.mesh()));
    }
}

/// A link whose visual and collision elements are the same shapes at the same origins draws
/// its collision mesh: nothing is loaded twice.
#[test]
fn a_link_drawn_as_it_collides_has_no_separate_look() {
    let same = GRIPPER.replace(
        r#"<visual><geometry><sphere radius="1"/></geometry></visual>"#,
        r#"<visual><geometry><box size="0.04 0.02 0.01"/></geometry></visual>"#,
    );
    let files = Embedded::new([
        ("ws/parts/urdf/robot.urdf", &*same.leak()),
        ("ws/parts/meshes/tri.off", TRIANGLE),
    ]);
    let robot = load_urdf(&files, Path::new("ws/parts/urdf/robot.urdf")).unwrap();
    assert!(robot.palm().visual.is_none());
}

/// One finger: the proximal link's geometry hangs 50 mm out along x by a fixed joint from a
/// frame without geometry, so the link takes that frame, as a Denavit–Hartenberg link does.
const FINGER: &str = r#"<robot name="finger">
  <link name="palm"><collision><geometry><cylinder radius="0.02" length="0.01"/></geometry></collision></link>
  <joint name="j1" type="revolute">
    <parent link="palm"/><child link="prox_frame"/>
    <origin xyz="0 0.02 0" rpy="0 0 1.5707963267948966"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1"/>
  </joint>
  <link name="prox_frame"/>
  <joint name="prox_fix" type="fixed">
    <parent link="prox_frame"/><child link="prox"/><origin xyz="0.05 0 0"/>
  </joint>
  <link name="prox"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
  <joint name="j2" type="revolute">
    <parent link="prox"/><child link="dist"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="1"/>
    <mimic joint="j1" multiplier="0.5" offset="0.25"/>
  </joint>
  <link name="dist"><visual><origin xyz="0.02 0 0"/><geometry><box size="0.04 0.01 0.01"/></geometry></visual></link>
  <joint name="spin" type="continuous">
    <parent link="dist"/><child link="tip"/><origin xyz="0.04 0 0"/><axis xyz="1 0 0"/>
  </joint>
  <link name="tip"/>
</robot>"#;

#[test]
fn a_link_takes_the_frame_of_its_only_geometry_and_mimic_offsets_apply() {
    let mut robot = load(FINGER).unwrap();
    assert_eq!(robot.dofs.len(), 2, "j1 and the continuous spin");
    let chain = &robot.chains()[0];
    assert_eq!((chain.joints.len(), chain.links.len()), (3, 2));
    assert_eq!(chain.links[0].body.name, "prox");
    let c = chain.joints[1].coupling;
    assert_eq!((c.dof, c.ratio, c.offset), (0, 0.5, 0.25));
    // j2's own limits [0, 1] on 0.5·j1 + 0.25 allow j1 in [-0.5, 1.5]; j1's own say [-1, 1].
    let (lo, hi) = robot.dof_limits(0);
    assert!(
        (lo + 0.5).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12,
        "{lo} {hi}"
    );
    assert_eq!(robot.dof_limits(1), (f64::NEG_INFINITY, f64::INFINITY));
    let q = 0.5;
    robot.set_dof_values(&[q, 3.0]).unwrap();
    // j1 sits at (0, 20, 0) turned 90° + q about z; prox is 50 mm out along its x.
    let a1 = std::f64::consts::FRAC_PI_2 + q;
    let prox = [50.0 * a1.cos(), 20.0 + 50.0 * a1.sin(), 0.0];
    assert_at(origin_of(&robot.chains()[0].links[0].body), prox);
    // dist turns a further 0.5·q + 0.25 at prox's origin; its box centre is 20 mm out.
    let dist = &robot.chains()[0].links[1].body;
    assert_at(origin_of(dist), prox);
    let a2 = a1 + 0.5 * q + 0.25;
    let centre = dist.pose() * Point3::new(20.0, 0.0, 0.0);
    assert_at(
        centre,
        [prox[0] + 20.0 * a2.cos(), prox[1] + 20.0 * a2.sin(), 0.0],
    );
}

#[test]
fn primitives_are_closed_outward_and_tessellated_like_graspit() {
    let cube = primitive_mesh(&primitives::cube(2.0, 4.0, 6.0), false).unwrap();
    assert!(cube.is_closed());
    assert_eq!(cube.triangles().len(), 12);
    assert!((cube.signed_volume() - 48.0).abs() < 1e-9);
    let cyl = primitive_mesh(
        &primitives::cylinder(2.0, 5.0, primitives::Parts::ALL),
        true,
    )
    .unwrap();
    assert!(cyl.is_closed());
    assert_eq!(cyl.triangles().len(), 2 * 20 + 2 * 18);
    let n = 20.0;
    let polygon = 0.5 * n * 4.0 * (std::f64::consts::TAU / n).sin();
    assert!((cyl.signed_volume() - polygon * 5.0).abs() < 1e-9);
    let (lo, hi) = cyl.bounding_box();
    assert!((lo.z + 2.5).abs() < 1e-12 && (hi.z - 2.5).abs() < 1e-12);
    let ball = primitive_mesh(&primitives::sphere(10.0), true).unwrap();
    assert!(ball.is_closed());
    assert_eq!(ball.vertices().len(), 2 + 13 * 15);
    assert_eq!(ball.triangles().len(), 2 * 15 + 2 * 15 * 12);
    let exact = 4.0 / 3.0 * std::f64::consts::PI * 1000.0;
    assert!(ball.signed_volume() > 0.9 * exact && ball.signed_volume() < exact);
}

fn error_of(urdf: &'static str) -> LoadError {
    let err = load(urdf).unwrap_err();
    assert_eq!(err.file, Path::new("ws/parts/urdf/robot.urdf"));
    err
}

#[test]
fn a_missing_package_lists_the_places_tried() {
    let urdf = r#"<robot name="r"><link name="a">
<visual><geometry><mesh filename="package://nowhere/m.stl"/></geometry></visual></link></robot>"#;
    let err = error_of(urdf);
    assert_eq!(err.line, Some(2), "{err}");
    for place in [
        "ws/parts/urdf/nowhere/m.stl",
        "ws/parts/nowhere/m.stl",
        "ws/nowhere/m.stl",
    ] {
        assert!(err.message.contains(place), "{err}");
    }
    let urdf = r#"<robot name="r"><link name="a">
<visual><geometry><mesh filename="gone.off"/></geometry></visual></link></robot>"#;
    assert!(
        error_of(urdf)
            .message
            .contains("missing mesh file ws/parts/urdf/gone.off")
    );
}

#[test]
fn a_link_with_two_movable_joints_starts_a_branch_on_its_joint() {
    let urdf = r#"<robot name="r">
<link name="palm"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
<link name="a"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
<link name="b"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
<link name="c"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
<joint name="ja" type="continuous"><parent link="palm"/><child link="a"/><axis xyz="0 0 1"/></joint>
<joint name="jb" type="continuous"><parent link="a"/><child link="b"/><origin xyz="0 0 0.02"/></joint>
<joint name="jc" type="continuous"><parent link="a"/><child link="c"/><origin xyz="0 0.03 0"/></joint>
</robot>"#;
    let robot = load(urdf).unwrap();
    let chains = robot.chains();
    assert_eq!(chains.len(), 2);
    assert_eq!((chains[0].joints.len(), chains[1].joints.len()), (2, 1));
    assert_eq!(
        chains[1].parent,
        Some(clasp_core::ChainParent { chain: 0, joint: 0 })
    );
    assert_at(origin_of(&chains[0].links[1].body), [0.0, 0.0, 20.0]);
    assert_at(origin_of(&chains[1].links[0].body), [0.0, 30.0, 0.0]);
    // Turning ja carries the branch: c goes round the z axis with a.
    let mut robot = robot;
    robot
        .set_dof_values(&[std::f64::consts::FRAC_PI_2, 0.0, 0.0])
        .unwrap();
    assert_at(
        origin_of(&robot.chains()[1].links[0].body),
        [-30.0, 0.0, 0.0],
    );
}

#[test]
fn bad_joints_name_the_line_and_the_problem() {
    let joint = |body: &str| -> LoadError {
        let urdf = format!(
            "<robot name=\"r\">\n<link name=\"palm\"><visual><geometry><sphere radius=\"0.01\"/></geometry></visual></link>\n<link name=\"a\"/>\n{body}\n</robot>"
        );
        error_of(Box::leak(urdf.into_boxed_str()))
    };
    let ends = "<parent link=\"palm\"/><child link=\"a\"/>";
    let cases = [
        (
            format!("<joint name=\"j\" type=\"floating\">{ends}</joint>"),
            "type \"floating\"",
        ),
        (
            format!("<joint name=\"j\" type=\"revolute\">{ends}</joint>"),
            "has no <limit>",
        ),
        (
            format!(
                "<joint name=\"j\" type=\"revolute\">{ends}<limit lower=\"1\" upper=\"0\"/></joint>"
            ),
            "limits are reversed",
        ),
        (
            format!("<joint name=\"j\" type=\"fixed\">{ends}<origin xyz=\"0 nan 0\"/></joint>"),
            "xyz=\"0 nan 0\" is not 3 finite numbers",
        ),
        (
            format!("<joint name=\"j\" type=\"continuous\">{ends}<axis xyz=\"0 0 0\"/></joint>"),
            "axis of zero length",
        ),
        (
            "<joint name=\"j\" type=\"fixed\"><parent link=\"palm\"/><child link=\"z\"/></joint>"
                .into(),
            "names link \"z\"",
        ),
        (
            format!("<joint name=\"j\" type=\"continuous\">{ends}<mimic joint=\"j\"/></joint>"),
            "loop of mimic joints",
        ),
        (
            format!("<joint name=\"j\" type=\"continuous\">{ends}<mimic joint=\"k\"/></joint>"),
            "names joint \"k\"",
        ),
    ];
    for (body, message) in cases {
        let err = joint(&body);
        assert_eq!(err.line, Some(4), "{body}: {err}");
        assert!(err.message.contains(message), "{body}: {err}");
    }
    let err = joint("");
    assert!(
        err.message.contains("several root links (palm, a)"),
        "{err}"
    );
}
