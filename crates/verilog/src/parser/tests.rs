//! Parser unit tests: the tree shapes that elaboration relies on.

use hypermut_ir::SourceMap;

use crate::ast::{BinaryOp, Design, Edge, ExprKind, Item, PortHeader, Sensitivity, Stmt};
use crate::preproc::Preprocessor;

fn parse(text: &str) -> Result<Design, String> {
    let mut sources = SourceMap::new();
    let mut p = Preprocessor::new(&mut sources, vec![]);
    p.file("t.v", None, text).map_err(|d| d.message.clone())?;
    let toks = p.finish().map_err(|d| d.message)?;
    super::parse_design(&toks, &sources).map_err(|d| d.message)
}

fn items(text: &str) -> Vec<Item> {
    let d = parse(text).unwrap_or_else(|e| panic!("{e}"));
    d.modules.into_iter().next().expect("a module").items
}

#[test]
fn precedence_follows_the_standard() {
    let it = items("module m; assign y = a | b & c == d + e * f << 1; endmodule");
    let Item::Assign { rhs, .. } = &it[0] else {
        panic!("not an assignment")
    };
    // a | (b & ((c == (d + (e * f))) ...)): `<<` binds tighter than `==`.
    let ExprKind::Binary(BinaryOp::Or, _, r) = &rhs.kind else {
        panic!("{rhs:?}")
    };
    let ExprKind::Binary(BinaryOp::And, _, r) = &r.kind else {
        panic!("{r:?}")
    };
    let ExprKind::Binary(BinaryOp::Eq, _, r) = &r.kind else {
        panic!("{r:?}")
    };
    assert!(matches!(r.kind, ExprKind::Binary(BinaryOp::Shl, _, _)));
}

#[test]
fn ternaries_nest_to_the_right() {
    let it = items("module m; assign y = a ? b : c ? d : e; endmodule");
    let Item::Assign { rhs, .. } = &it[0] else {
        panic!()
    };
    let ExprKind::Cond(_, _, els) = &rhs.kind else {
        panic!()
    };
    assert!(matches!(els.kind, ExprKind::Cond(..)));
}

#[test]
fn ports_ansi_non_ansi_and_renamed() {
    let d = parse(
        "module a(input [3:0] x, y, output reg z); endmodule
         module b(p, q); input p; output q; endmodule
         module c(.p(i), q); input i; output q; endmodule",
    )
    .unwrap();
    assert_eq!(d.modules.len(), 3);
    let PortHeader::Ansi(y) = &d.modules[0].ports[1] else {
        panic!()
    };
    assert!(y.range.is_some(), "y inherits the range of x");
    assert!(matches!(d.modules[1].ports[0], PortHeader::Name(_)));
    assert!(matches!(d.modules[2].ports[0], PortHeader::Renamed(..)));
}

#[test]
fn sensitivity_lists() {
    let it = items(
        "module m;
         always @(posedge clk or negedge rst) q <= d;
         always @(a, b) y = a;
         always @* z = 1;
         always @(*) w = 1;
         endmodule",
    );
    let sens: Vec<&Sensitivity> = it
        .iter()
        .filter_map(|i| match i {
            Item::Always { sens, .. } => Some(sens),
            _ => None,
        })
        .collect();
    let Sensitivity::List(evs) = sens[0] else {
        panic!()
    };
    assert_eq!(evs[0].0, Edge::Pos);
    assert_eq!(evs[1].0, Edge::Neg);
    assert!(matches!(sens[1], Sensitivity::List(l) if l.len() == 2 && l[0].0 == Edge::Level));
    assert!(matches!(sens[2], Sensitivity::Star));
    assert!(matches!(sens[3], Sensitivity::Star));
}

#[test]
fn nonblocking_versus_less_or_equal() {
    let it = items("module m; always @(posedge c) if (a <= b) q <= #1 a; endmodule");
    let Item::Always { body, .. } = &it[0] else {
        panic!()
    };
    let Stmt::If { cond, then, .. } = body else {
        panic!()
    };
    assert!(matches!(cond.kind, ExprKind::Binary(BinaryOp::Le, _, _)));
    assert!(matches!(
        **then,
        Stmt::Assign {
            nonblocking: true,
            ..
        }
    ));
}

#[test]
fn generate_constructs_and_instances() {
    let it = items(
        "module m;
         genvar i;
         generate for (i = 0; i < 2; i = i + 1) begin : g sub #(.W(i)) u (.a(x[i])); end endgenerate
         if (P) begin assign y = 1; end else assign y = 0;
         and (o, a, b), (o2, c, d);
         endmodule",
    );
    assert!(it
        .iter()
        .any(|i| matches!(i, Item::GenFor(g) if g.label.as_ref().is_some_and(|l| l.name == "g"))));
    assert!(it
        .iter()
        .any(|i| matches!(i, Item::GenIf { els: Some(_), .. })));
    assert_eq!(it.iter().filter(|i| matches!(i, Item::Gate(_))).count(), 2);
}

#[test]
fn sized_literals_with_spaces_and_replication() {
    let it = items("module m; assign y = {2{8 'h A5}}; endmodule");
    let Item::Assign { rhs, .. } = &it[0] else {
        panic!()
    };
    let ExprKind::Repeat(_, inner) = &rhs.kind else {
        panic!("{rhs:?}")
    };
    let ExprKind::Number(n) = &inner[0].kind else {
        panic!()
    };
    assert_eq!(n.width, Some(8));
    assert_eq!(n.value, num_bigint::BigUint::from(0xa5u32));
}

#[test]
fn vis_typedefs_and_assertions() {
    let d = parse(
        "typedef enum {A, B} t;
         module m; t reg x; assert property (x == A); assume property (x); endmodule",
    )
    .unwrap();
    assert_eq!(d.typedefs.len(), 1);
    let it = &d.modules[0].items;
    assert!(
        matches!(&it[0], Item::Decl(dc) if matches!(dc.kind, Some(crate::ast::NetKind::Enum(_))))
    );
    assert!(matches!(it[1], Item::Assert { .. }));
    assert!(matches!(it[2], Item::Ignored { .. }));
}

#[test]
fn errors_name_what_was_expected() {
    assert!(parse("module m; assign = 1; endmodule")
        .unwrap_err()
        .contains("expected an expression"));
    assert!(parse("module m; always @(posedge) x = 1; endmodule")
        .unwrap_err()
        .contains("expected an expression"));
    assert!(parse("endmodule")
        .unwrap_err()
        .contains("expected `module`"));
    assert!(parse("module m; begin end")
        .unwrap_err()
        .contains("endmodule"));
}
