#include <cstdio>
#define N(e) cudaGetErrorName(e)
typedef cudaGraphConditionalHandle H;
cudaGraph_t b[4];cudaGraphNode_t n;
cudaError_t A(cudaGraph_t g,H h,int t,unsigned s){cudaGraphNodeParams p{};p.type=cudaGraphNodeTypeConditional;p.conditional.handle=h;p.conditional.type=(cudaGraphConditionalNodeType)t;p.conditional.size=s;cudaError_t e=cudaGraphAddNode(&n,g,0,0,0,&p);if(!e)b[0]=p.conditional.phGraph_out[0];cudaGetLastError();return e;}
cudaError_t I(cudaGraph_t g){cudaGraphExec_t x;cudaError_t e=cudaGraphInstantiate(&x,g,0);cudaGetLastError();if(!e){printf(" L %s %s",N(cudaGraphLaunch(x,0)),N(cudaDeviceSynchronize()));cudaGraphExecDestroy(x);}return e;}
int main(){cudaGraph_t g,g2;H c,c2;
cudaGraphCreate(&g,0);printf("nullgraph %s\n",N(cudaGraphConditionalHandleCreate(&c,0,0,0)));cudaGetLastError();
cudaGraphConditionalHandleCreate(&c,g,0,0);printf("switch0 %s\n",N(A(g,c,2,0)));printf("nullparams %s\n",N(cudaGraphAddNode(&n,g,0,0,0,0)));cudaGetLastError();
cudaGraphCreate(&g2,0);cudaGraphConditionalHandleCreate(&c2,g2,0,0);printf("c=%llx c2=%llx\n",c,c2);
cudaGraph_t g3;cudaGraphCreate(&g3,0);printf("other %s\n",N(A(g3,c2,0,1)));printf(" inst %s\n",N(I(g3)));
printf("first %s\n",N(A(g,c,0,1)));printf("second %s\n",N(A(g,c,0,1)));
cudaGraph_t g4;cudaGraphCreate(&g4,0);H c4;cudaGraphConditionalHandleCreate(&c4,g4,0,0);cudaGraphAddEmptyNode(&n,g4,0,0);printf("unused");printf(" inst %s\n",N(I(g4)));
cudaGraph_t g5;cudaGraphCreate(&g5,0);H c5;cudaGraphConditionalHandleCreate(&c5,g5,0,0);printf("fresh %s",N(A(g5,c5,0,1)));printf(" inst %s\n",N(I(g5)));
cudaGraph_t g6;cudaGraphCreate(&g6,0);H c6;cudaGraphConditionalHandleCreate(&c6,g6,1,1);A(g6,c6,0,1);cudaHostNodeParams hp{};hp.fn=[](void*){};printf("hostinbody %s",N(cudaGraphAddHostNode(&n,b[0],0,0,&hp)));cudaGetLastError();printf(" inst %s\n",N(I(g6)));
return 0;}
